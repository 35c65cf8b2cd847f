//! Link settings per platform.
//!
//! macOS: the dylib's install name (its LC_ID_DYLIB) is `@rpath/libfast_var_codec.dylib` rather
//! than the path it was linked at in the build directory, which would otherwise be written into
//! every shipped library (Godot opens the file by its own path; an exported app finds it in its
//! Frameworks folder).
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if os == "macos" {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-install_name,@rpath/libfast_var_codec.dylib");
        // No debug map (STABS) and no local symbols in the shipped library, as `strip -S -x`
        // would leave it; stripping afterwards would break the arm64 slice's code signature.
        println!("cargo:rustc-cdylib-link-arg=-Wl,-S");
        println!("cargo:rustc-cdylib-link-arg=-Wl,-x");
    }
}
