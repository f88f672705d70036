//! The `dealer` command line: `demo`, `run`, `serve`, `merge`, `rainman`, `replay` and `bots`. `main.rs`
//! only calls [`main`].
//!
//! Layers, as ripgrep splits its flags: `args` is the raw command line (clap types, help,
//! value parsers); [`crate::settings`] merges it with the config file into checked settings;
//! `run` and `demo` play, `merge` combines a sharded run's folders, `rainman` serves hand
//! rankings, `replay` plays a recorded game again and compares its logs; `report` prints the tables at the end; `signals` turns Ctrl-C and
//! SIGTERM into a clean stop. Only [`main`] is public: the library parts are in
//! [`crate::settings`], [`crate::tournament`] and [`crate::house`].
//!
//! Exit codes: 0 when the run completed (bans are results, not errors), 1 when it could not be
//! played to its end (players down, a file that cannot be written), 2 for bad arguments or a bad
//! config file, 130 when stopped with Ctrl-C. Every error is one line on stderr. A closed
//! stdout (`dealer run ... | head -1`) only loses the printed tables: the run plays on and
//! writes its files.

mod args;
mod demo;
mod merge;
mod rainman;
mod replay;
mod report;
mod run;
mod serve;
mod signals;

use crate::progress::Screen;
use args::{Cli, Command};
use clap::Parser;
use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::Duration;

/// A one-line error and its exit code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Failure {
    /// The message, printed after `error: `.
    pub message: String,
    /// The process exit code.
    pub code: u8,
}

impl Failure {
    /// Bad arguments or settings: exit code 2.
    pub fn usage(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            code: 2,
        }
    }

    /// A run that could not be played to its end: exit code 1.
    pub fn run(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            code: 1,
        }
    }
}

/// Runs the `dealer` command line and returns the process exit code.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => return clap_failure(&error),
    };
    let screen = Screen::stderr(!cli.quiet);
    log_to_screen(cli.verbose, &screen);
    let outcome = match cli.command {
        // `dealer run` picks its runtime once its settings are known (see `run::run`).
        Command::Run(args) => run::run(*args, &screen),
        Command::Demo(args) => block_on(Runtime::Workers, demo::demo(args, &screen)),
        Command::Bots => {
            report::print(&report::bot_list());
            Ok(())
        }
        Command::Serve(args) => {
            // All day: memory freed in one thread's arena must be reusable by the others.
            crate::event::retention::limit_malloc_arenas();
            block_on(Runtime::Workers, serve::serve(args, &screen))
        }
        Command::Merge(args) => merge::merge(args),
        Command::Rainman(args) => block_on(Runtime::Workers, rainman::rainman(args, &screen)),
        Command::Replay(args) => replay::replay(args),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("error: {}", failure.message);
            ExitCode::from(failure.code)
        }
    }
}

/// The tokio runtime a command runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Runtime {
    /// Everything on the calling thread: for one game at a time, whose task does all the work
    /// (a second worker would only add wake-ups between threads).
    OneThread,
    /// A worker thread per core: for games in parallel and for the servers.
    Workers,
}

/// Runs `future` to its end on a new runtime of the given kind.
///
/// # Errors
/// The future's own [`Failure`], or code 1 when the runtime cannot start.
pub(crate) fn block_on<T>(
    runtime: Runtime,
    future: impl std::future::Future<Output = Result<T, Failure>>,
) -> Result<T, Failure> {
    let mut builder = match runtime {
        Runtime::OneThread => tokio::runtime::Builder::new_current_thread(),
        Runtime::Workers => tokio::runtime::Builder::new_multi_thread(),
    };
    let runtime = builder
        .enable_all()
        .build()
        .map_err(|error| Failure::run(format!("cannot start the async runtime: {error}")))?;
    let outcome = runtime.block_on(future);
    // Stragglers (a player thread stuck in a bot) must not keep the process alive.
    runtime.shutdown_timeout(Duration::from_secs(1));
    outcome
}

/// clap's own errors, on one line (help and version are printed as they are).
fn clap_failure(error: &clap::Error) -> ExitCode {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if matches!(
        error.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        // A closed stdout (`dealer --help | head -1`) is not an error worth a word.
        let _ = error.print();
        return ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(2));
    }
    let context = |kind| match error.get(kind) {
        Some(ContextValue::String(text)) => Some(text.clone()),
        _ => None,
    };
    let message = match error.kind() {
        // clap would echo the value whole: a URL may carry a password.
        ErrorKind::ValueValidation => {
            let arg = context(ContextKind::InvalidArg).unwrap_or_else(|| "an argument".into());
            let value = context(ContextKind::InvalidValue)
                .map(|value| format!(" '{}'", args::shorten(&value)))
                .unwrap_or_default();
            let reason = std::error::Error::source(error)
                .map(|source| format!(": {source}"))
                .unwrap_or_default();
            format!("invalid value{value} for '{arg}'{reason}")
        }
        // Not one of the names of a value_enum: say which names there are, on the same line.
        ErrorKind::InvalidValue => {
            let arg = context(ContextKind::InvalidArg).unwrap_or_else(|| "an argument".into());
            let value = context(ContextKind::InvalidValue).unwrap_or_default();
            let known = match error.get(ContextKind::ValidValue) {
                Some(ContextValue::Strings(values)) => format!(" (one of: {})", values.join(", ")),
                _ => String::new(),
            };
            format!(
                "invalid value '{}' for '{arg}'{known}",
                args::shorten(&value)
            )
        }
        _ => {
            let rendered = error.render().to_string();
            let mut lines = rendered
                .lines()
                .map(str::trim)
                .filter(|line| !line.is_empty());
            let first = lines.next().unwrap_or("invalid arguments");
            let first = first.strip_prefix("error: ").unwrap_or(first);
            // "the following required arguments were not provided:" lists them on the
            // lines below: keep them on this one.
            match first.strip_suffix(':') {
                Some(intro) => {
                    let listed: Vec<&str> =
                        lines.take_while(|l| !l.starts_with("Usage:")).collect();
                    format!("{intro}: {}", listed.join(", "))
                }
                None => first.to_string(),
            }
        }
    };
    eprintln!("error: {message} (see dealer --help)");
    ExitCode::from(2)
}

fn log_to_screen(verbose: u8, screen: &Screen) {
    use std::str::FromStr;
    use tracing_subscriber::filter::Targets;
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    let default = match verbose {
        0 => "warn",
        1 => "info,player=warn",
        2 => "debug",
        _ => "trace",
    };
    let filter = match std::env::var("RUST_LOG") {
        Ok(directives) if !directives.trim().is_empty() => Targets::from_str(directives.trim())
            .unwrap_or_else(|error| {
                screen.println(&format!(
                    "RUST_LOG={directives:?} is not a log filter ({error}); using {default}"
                ));
                Targets::from_str(default).unwrap_or_default()
            }),
        _ => Targets::from_str(default).unwrap_or_default(),
    };
    let format = tracing_subscriber::fmt::layer()
        .with_writer(screen.log_writer())
        .with_ansi(std::io::stderr().is_terminal());
    let _ = tracing_subscriber::registry()
        .with(format)
        .with(filter)
        .try_init();
}
