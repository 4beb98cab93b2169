#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One monotonic clock for the whole process: writers stamp send times and subscribers stamp deliveries with it,
/// so commit→delivery latency never mixes clocks.
///
/// Stateless; thread-safe.
enum MonotonicClock {
    /// Nanoseconds since an arbitrary fixed point (CLOCK_MONOTONIC).
    static func nanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    /// Seconds between two readings.
    static func seconds(from start: UInt64, to end: UInt64) -> Double {
        Double(end &- start) / 1e9
    }
}
