import CoreFoundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The CPU time the calling thread has used (`CLOCK_THREAD_CPUTIME_ID`), for pacing work by what it cost rather
/// than by wall time, which preemption stretches.
///
/// Stateless; safe from any thread (each thread reads its own clock).
enum ThreadCPUClock {
    /// The calling thread's CPU time in nanoseconds (0 if the clock cannot be read).
    static func nanoseconds() -> Int64 {
        var now = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now) == 0 else { return 0 }
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}
