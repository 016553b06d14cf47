//! The clock the comparison times with: this thread's CPU time.
//!
//! Wall-clock medians inflate under load (another process taking the core mid-call), and they
//! inflate a millisecond-long query far more often than a microsecond-long one, which biased the
//! ratio. CPU time of the calling thread counts only the time the query itself ran. Reading it
//! is a system call (a few hundred nanoseconds), so calls are timed in batches long enough
//! that the clock's own cost is below 1% (see `time_median`).

use std::time::Duration;

/// What `now` measures, for the report.
#[cfg(unix)]
pub const CLOCK: &str = "thread CPU time (clock_gettime(CLOCK_THREAD_CPUTIME_ID))";
/// What `now` measures, for the report.
#[cfg(not(unix))]
pub const CLOCK: &str = "wall clock (no thread CPU clock on this platform)";

/// This thread's CPU time so far.
#[cfg(unix)]
pub fn now() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; CLOCK_THREAD_CPUTIME_ID is supported on every
    // unix Fathom builds for (Linux, macOS, the BSDs). A failure leaves `ts` at zero.
    unsafe {
        libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts);
    }
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// Time since the first call in this process (no thread CPU clock on this platform).
#[cfg(not(unix))]
pub fn now() -> Duration {
    use std::sync::OnceLock;
    use std::time::Instant;
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_advances_with_work() {
        let t0 = now();
        let mut x = 0u64;
        for i in 0..5_000_000u64 {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(i));
        }
        assert!(now() > t0, "{x}");
    }
}
