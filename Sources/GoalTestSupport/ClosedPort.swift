import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A loopback TCP port with nothing listening: a socket bound and never listened on, so a connection to it is
/// refused, and held until this value is released, so no server a test (or one running beside it) starts on port 0
/// meanwhile can be given that port. A port found by binding port 0 and closing again has no such guarantee, and
/// parallel tests have been handed it. Immutable, `Sendable`; keep it alive for as long as the port must stay refused
/// (`withExtendedLifetime`).
public final class ClosedPort: Sendable, CustomStringConvertible {
    /// No loopback port could be bound.
    public struct Unavailable: Error {}

    public let port: Int
    private let descriptor: Int32

    /// Binds a fresh loopback port and holds it.
    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(fd, raw, length) == 0 && getsockname(fd, raw, &length) == 0
            }
        }
        guard fd >= 0, bound else {
            if fd >= 0 { close(fd) }
            throw Unavailable()
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        descriptor = fd
    }

    deinit { close(descriptor) }

    public var description: String { "\(port)" }
}
