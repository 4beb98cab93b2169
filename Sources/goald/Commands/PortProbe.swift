#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Checks, before `goald serve` creates anything (state directory, certificates, admin token), that each listener's
/// port can be bound: a port in use fails at once, naming it, instead of after the first start's files exist.
///
/// It binds a socket to the address the daemon will bind (with `SO_REUSEADDR`, as the daemon does) and closes it
/// again. Another process may still take the port between this check and the daemon's own bind; the daemon then
/// fails as before. Port 0 (any free port) is never checked. Stateless.
enum PortProbe {
    /// - Parameters:
    ///   - host: The listener's host (a name or an address, as configured).
    ///   - port: The listener's port.
    ///   - flag: The flag that sets the port, for the hint (`--port`, `--metrics-port`).
    /// - Throws: `CommandFailure` naming the port and the address when it cannot be bound.
    static func check(host: String, port: Int, flag: String) throws(CommandFailure) {
        guard port > 0 else { return }
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE
        hints.ai_family = AF_UNSPEC
        #if canImport(Darwin)
        hints.ai_socktype = SOCK_STREAM
        #else
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        // A host that does not resolve is the daemon's own error to report (with the configuration's context).
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else { return }
        defer { freeaddrinfo(list) }
        let descriptor = socket(first.pointee.ai_family, first.pointee.ai_socktype, first.pointee.ai_protocol)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var one: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        guard bind(descriptor, first.pointee.ai_addr, first.pointee.ai_addrlen) != 0 else { return }
        let code = errno
        throw CommandFailure(message(host: host, port: port, flag: flag, errno: code))
    }

    /// The sentence for a failed bind.
    static func message(host: String, port: Int, flag: String, errno code: Int32) -> String {
        switch code {
        case EADDRINUSE:
            return "port \(port) on \(host) is already in use (another goald, or another program); stop it or "
                + "choose another port with \(flag). Nothing was created."
        case EACCES:
            return "port \(port) on \(host) needs privileges this user does not have; choose a port above 1023 "
                + "with \(flag). Nothing was created."
        case EADDRNOTAVAIL:
            return "cannot listen on \(host):\(port): this machine has no such address; check --host. Nothing was "
                + "created."
        default:
            return "cannot listen on \(host):\(port): \(String(cString: strerror(code))). Nothing was created."
        }
    }
}
