/// Where a running daemon listens, once bound (port 0 resolved to the real port).
///
/// Value type, `Sendable`.
public struct DaemonAddresses: Sendable, Equatable {
    /// The host the WebSocket/HTTP listener bound.
    public var host: String
    /// The WebSocket/HTTP listener's port.
    public var port: Int
    /// The plaintext metrics listener's port, when configured.
    public var metricsPort: Int?

    public init(host: String, port: Int, metricsPort: Int?) {
        self.host = host
        self.port = port
        self.metricsPort = metricsPort
    }
}

/// Why a daemon stopped other than by a graceful shutdown. Value type, `Sendable`.
public struct DaemonError: Error, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
