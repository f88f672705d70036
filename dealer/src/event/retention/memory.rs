//! The memory an all-day server hands back to the OS (run after retention passes, which read
//! and write the logs that fragment it most).

/// How often freed memory is handed back to the OS (see [`return_freed_memory`]).
pub const TRIM_EVERY: std::time::Duration = std::time::Duration::from_secs(10);

/// Hands memory the server freed back to the OS. glibc keeps freed blocks in its per-thread
/// arenas; over an event, the logs read and written by every thread (megabytes each) leave
/// them fragmented, and the server's RSS grew from 374 MiB at 500 games to 638 MiB at 2,000
/// with only 268 MiB in use (measured with `malloc_trim` through gdb; README, "Memory and
/// file handles over a long event"). A no-op with other C libraries.
pub fn return_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim takes no pointer and may be called at any time from any thread;
    // glibc locks each arena while it trims it.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// The most malloc arenas `dealer serve` lets glibc use (see [`limit_malloc_arenas`]).
pub const MALLOC_ARENAS: i32 = 2;

/// Caps glibc's malloc arenas at [`MALLOC_ARENAS`] for the rest of the process, unless
/// `MALLOC_ARENA_MAX` is set (glibc reads it itself). glibc gives threads arenas of their
/// own, up to eight per core; each keeps the memory its threads freed in pieces
/// `malloc_trim` cannot hand back, and in the long-event soak the server's RSS at 500 games
/// was 156 MiB with them and 100 MiB with two (README, "Memory and file handles over a long
/// event"). Two arenas are enough for the two busy kinds of thread (the runtime's workers
/// and the blocking pool) to rarely wait for each other. Call before the runtime starts its
/// threads. A no-op with other C libraries.
pub fn limit_malloc_arenas() {
    if std::env::var_os("MALLOC_ARENA_MAX").is_some() {
        return;
    }
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt takes no pointer; called before the runtime's threads allocate, and
    // glibc applies the cap to arenas created from then on either way.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, MALLOC_ARENAS);
    }
}
