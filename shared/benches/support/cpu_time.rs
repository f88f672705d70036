//! The clock the evaluator benches time with (`eval_speed.rs`, `hhe_compare`): the on-CPU time
//! of the measuring thread, not wall time. On a shared machine, time the thread spends waiting
//! for a core is not the code's, and would decide a ratio by whichever side was unlucky.

/// The on-CPU time of the calling thread so far, in seconds.
pub fn thread_cpu_seconds() -> f64 {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid, writable `timespec` and the thread CPU-time clock exists on
    // every Linux (clock_gettime(2)); the call writes `now` and nothing else.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    assert_eq!(status, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    now.tv_sec as f64 + now.tv_nsec as f64 * 1e-9
}

/// The load average over the last minute, for the report (how busy the machine was).
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|text| text.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "unknown".to_owned())
}
