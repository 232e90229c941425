//! Links the binary as a fixed-address executable on Linux. A hook is a fresh process per event:
//! a position-independent binary of this size spends a third of its start-up applying ~57k
//! relocations, page by page; a fixed-address one has none to apply.

fn main() {
    let target_os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if target_os == "linux" {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
