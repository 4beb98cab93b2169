/// Where a running daemon listens, once bound (port 0 resolved to the real port), and the node id it runs under.
///
/// Value type, `Sendable`.
public struct DaemonAddresses: Sendable, Equatable {
    /// The host the WebSocket/HTTP listener bound.
    public var host: String
    /// The WebSocket/HTTP listener's port.
    public var port: Int
    /// The plaintext metrics listener's port, when configured.
    public var metricsPort: Int?
    /// The node id (`ServerConfiguration.nodeID`, or the one kept in the state directory).
    public var nodeID: String

    public init(host: String, port: Int, metricsPort: Int?, nodeID: String) {
        self.host = host
        self.port = port
        self.metricsPort = metricsPort
        self.nodeID = nodeID
    }
}

/// Why a daemon stopped other than by a graceful shutdown. Value type, `Sendable`.
public struct DaemonError: Error, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
