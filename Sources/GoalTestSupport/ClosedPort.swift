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
        guard let (descriptor, port) = LoopbackSocket.make(listening: false) else { throw Unavailable() }
        self.descriptor = descriptor
        self.port = port
    }

    deinit { close(descriptor) }

    public var description: String { "\(port)" }
}
