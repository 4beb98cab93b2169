/// Which server a `GoalClient` is on: its place in `ClientConfiguration.servers`, its name there, and the node id
/// and protocol version the server's `welcome` named.
///
/// Value type, `Sendable`; the client publishes it as a `Property` (`GoalClient.server`) on its scheduler.
public struct ServerLocation: Hashable, Sendable, CustomStringConvertible {
    /// The index into `ClientConfiguration.servers`.
    public var index: Int
    /// The server as configured ("wss://a.example:7443").
    public var name: String
    /// The node id of `welcome.node` (goald's `nodeId`): nil until this connection is welcomed, or when the server
    /// does not send one (an older goald).
    public var node: String?
    /// The protocol version the server's `welcome` answered (1 or 2): nil until this connection is welcomed.
    public var protocolVersion: Int?

    public init(index: Int, name: String, node: String? = nil, protocolVersion: Int? = nil) {
        self.index = index
        self.name = name
        self.node = node
        self.protocolVersion = protocolVersion
    }

    public var description: String {
        node.map { "\(name) (node \($0))" } ?? name
    }
}
