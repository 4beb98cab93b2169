import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A loopback TCP port that stays a test's own while nothing listens on it: for a test that stops a daemon and
/// starts another on the same address (clients reconnect to it), or that needs a stopped daemon's port to refuse.
///
/// A port a server got by binding port 0 comes from the kernel's ephemeral range
/// (`/proc/sys/net/ipv4/ip_local_port_range`, 32768–60999 by default), the range every port-0 bind and every
/// outgoing connection's local port is drawn from: once its server stopped, a parallel test (in this process or
/// another) could be handed it. A reserved port lies outside that range (20000–31999, below the range's start), so
/// neither can get it, and it is reserved among test processes by an exclusive `flock` on
/// `/tmp/goald-test-ports/<port>.lock`, held from `init` until this value is released (the kernel drops the lock
/// with the process, so a crashed run leaves none behind). `init` also checks that the port can be bound right now
/// (with `SO_REUSEADDR`, as goald binds), so a port some other program listens on is never handed out.
///
/// Nothing is bound while the reservation is held: the daemon binds the port itself, and it is free between a
/// stop and the next start. Programs that bind fixed ports without a reservation are not kept out.
///
/// Threading: immutable, `Sendable`; `port` may be read from any task. Lifetime: the port is reserved until the last
/// reference goes away: keep the value alive (`defer { withExtendedLifetime(reservation) {} }`) across every stop and
/// start that must find the port free.
public final class PortReservation: Sendable, CustomStringConvertible {
    /// No port of the window could be reserved: every one is locked by another test or bound.
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    /// Where the lock files live: one fixed directory, so that every test process on the machine sees the same locks.
    static let directory = "/tmp/goald-test-ports"

    public let port: Int
    private let lock: Int32

    /// Reserves a free port outside the ephemeral range.
    /// - Throws: `Unavailable` when none of the window's ports is free, or the lock directory cannot be made.
    public init() throws {
        let window = Self.window(ephemeral: Self.ephemeralRange())
        guard !window.isEmpty else {
            throw Unavailable(description: "no port outside the ephemeral range \(Self.ephemeralRange()) to reserve")
        }
        if mkdir(Self.directory, 0o777) == 0 {
            chmod(Self.directory, 0o1777)  // like /tmp: other users' test runs may add their locks
        } else if errno != EEXIST {
            throw Unavailable(description: "cannot make \(Self.directory): errno \(errno)")
        }
        let start = Int.random(in: window)
        for offset in 0..<window.count {
            let port = window.lowerBound + (start - window.lowerBound + offset) % window.count
            if let lock = Self.lock(port) {
                self.port = port
                self.lock = lock
                return
            }
        }
        throw Unavailable(description: "every port in \(window) is reserved or bound")
    }

    deinit { close(lock) }  // releases the flock

    public var description: String { "\(port)" }

    /// The ports handed out: 20000–31999, cut below the ephemeral range's start (or above its end when that leaves
    /// nothing below).
    static func window(ephemeral: ClosedRange<Int>) -> Range<Int> {
        if ephemeral.lowerBound > 20_000 { return 20_000..<min(32_000, ephemeral.lowerBound) }
        return min(ephemeral.upperBound + 1, 65_536)..<65_536
    }

    /// The kernel's ephemeral range (Linux's default when it cannot be read).
    static func ephemeralRange() -> ClosedRange<Int> {
        // Unreadable (no /proc, another OS): the empty text falls back to Linux's default range below.
        let text = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
        let bounds = text.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard bounds.count == 2, bounds[0] <= bounds[1] else { return 32_768...60_999 }
        return bounds[0]...bounds[1]
    }

    /// Takes `port`'s lock without waiting, then checks that the port can be bound; the locked descriptor, or nil.
    private static func lock(_ port: Int) -> Int32? {
        let descriptor = open("\(directory)/\(port).lock", O_RDONLY | O_CREAT | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { return nil }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0, isBindable(port) else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    /// True when a TCP socket can bind `port` on every IPv4 address now (nothing listens on it, no connection holds
    /// it as its local port). Binds and closes at once: a socket that never listened or connected leaves nothing.
    private static func isBindable(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var reuse: Int32 = 1
        guard setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            return false
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = INADDR_ANY
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
