//! The `dealer` command line: a thin shell over [`dealer::cli`]. `dealer --help` explains it.

fn main() -> std::process::ExitCode {
    dealer::cli::main()
}
