//! The `dealer` command line (being built).
fn main() {
    eprintln!("dealer: not built yet");
    std::process::exit(2);
}
