// The WebAssembly's stack: 8 MiB rather than the linker's 1 MiB. A wasm32 stack cannot grow or
// be switched (the core's stack guard finds no limit to measure there and recurses in place), and
// the deepest value the core's limits allow (1,024 levels) takes more than 1 MiB through the
// tape, the core's reader or writer and back.
fn main() {
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo:rustc-link-arg-cdylib=-zstack-size=8388608");
    }
}
