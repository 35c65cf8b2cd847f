//! Link settings per platform.
//!
//! macOS: no debug map (STABS) and no local symbols in the extension, as `strip -S -x` would
//! leave it. The wheel is built without maturin's `--strip` there: stripping after zig's ad-hoc
//! signing would break the arm64 slice's code signature.
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if os == "macos" {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-S");
        println!("cargo:rustc-cdylib-link-arg=-Wl,-x");
    }
}
