import GoalTransport
import NIOCore

/// Spreads connections over source addresses in 127.0.0.0/8 so that no address exceeds goald's per-IP limit and
/// no address runs out of ephemeral ports.
///
/// Value type, `Sendable`; pure. Only used when every server's address is an IPv4 loopback literal (the family of
/// the bound address must match).
struct SourceAddresses: Sendable {
    /// Connections per address.
    let perAddress: Int
    /// False when the endpoint is not 127.x.y.z: connections then bind nothing.
    let enabled: Bool

    init(endpoint: ServerEndpoint, perAddress: Int) {
        self.init(endpoints: [endpoint], perAddress: perAddress)
    }

    init(endpoints: [ServerEndpoint], perAddress: Int) {
        self.perAddress = max(1, perAddress)
        self.enabled =
            !endpoints.isEmpty && endpoints.allSatisfy { $0.host.hasPrefix("127.") && $0.hostIsIPAddress }
    }

    /// The dotted address of connection `index`: 127.77.x.y, counting from 127.77.0.1.
    func address(for index: Int) -> String? {
        guard enabled else { return nil }
        let slot = index / perAddress + 1
        return "127.77.\((slot >> 8) & 0xff).\(slot & 0xff)"
    }

    /// The socket address (port 0) of connection `index`, or nil.
    func socketAddress(for index: Int) -> SocketAddress? {
        guard let text = address(for: index) else { return nil }
        // `address(for:)` spells a dotted IPv4 literal, which always parses; nil (bind nothing) is the fallback.
        return try? SocketAddress(ipAddress: text, port: 0)
    }
}
