import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// CPU time and resident memory of a process, read at one instant.
///
/// Value type, `Sendable`.
struct ProcessSample: Sendable, Equatable {
    /// User + system CPU seconds so far.
    var cpuSeconds: Double
    /// Resident set size in bytes (0 when unknown).
    var rssBytes: UInt64
}

/// Reads CPU and RSS: goald's from /proc/PID/stat and /proc/PID/status, goal-load's own from getrusage.
///
/// Stateless; thread-safe.
enum ProcessStats {
    /// goal-load's own CPU (getrusage) and RSS (/proc/self/status).
    static func current() -> ProcessSample {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        let cpu =
            Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
            + Double(usage.ru_stime.tv_usec) / 1e6
        return ProcessSample(cpuSeconds: cpu, rssBytes: residentBytes(status: read("/proc/self/status")) ?? 0)
    }

    /// Another process's CPU and RSS, or nil when it cannot be read (no such process, not Linux).
    static func sample(pid: Int32) -> ProcessSample? {
        guard let stat = read("/proc/\(pid)/stat"), let cpu = cpuSeconds(stat: stat) else { return nil }
        return ProcessSample(cpuSeconds: cpu, rssBytes: residentBytes(status: read("/proc/\(pid)/status")) ?? 0)
    }

    /// utime + stime from the text of /proc/PID/stat (fields 14 and 15, counted after the command name).
    static func cpuSeconds(stat: String) -> Double? {
        guard let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // fields[0] is field 3 (state); utime is field 14, stime field 15.
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return (user + system) / (ticks > 0 ? ticks : 100)
    }

    /// VmRSS from the text of /proc/PID/status, in bytes.
    static func residentBytes(status: String?) -> UInt64? {
        guard let status else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let number = line.dropFirst(6).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap {
                UInt64($0)
            }
            return number.map { $0 * 1024 }
        }
        return nil
    }

    private static func read(_ path: String) -> String? {
        // /proc files are informational (Linux only): unreadable, the report leaves the figure out.
        try? String(contentsOfFile: path, encoding: .utf8)
    }
}

/// The open-file limit, which bounds how many connections goal-load can hold.
///
/// Stateless; call `raise()` once at start, before connecting.
enum FileLimit {
    /// Raises the soft limit to the hard limit and returns the new soft limit.
    @discardableResult
    static func raise() -> UInt64 {
        var limit = rlimit()
        #if canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0 else { return 0 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        return UInt64(limit.rlim_cur)
    }
}
