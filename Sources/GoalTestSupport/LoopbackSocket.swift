import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A TCP socket bound to a fresh port on 127.0.0.1, listening or not: what `ClosedPort` holds (never listening, so
/// connections are refused) and what a test that needs a port already in use holds (listening). Stateless.
public enum LoopbackSocket {
    /// Binds a new socket to a free loopback port, listening with a backlog of 4 when `listening`.
    /// - Returns: The descriptor (the caller closes it) and the port, or nil when no port could be bound.
    public static func make(listening: Bool) -> (descriptor: Int32, port: Int)? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(fd, raw, length) == 0 && (!listening || listen(fd, 4) == 0)
                    && getsockname(fd, raw, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            return nil
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }
}
