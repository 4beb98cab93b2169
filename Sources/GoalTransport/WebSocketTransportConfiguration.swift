public import NIOCore

/// The tunables of a `WebSocketTransport`, with documented defaults.
///
/// Value type, `Sendable`; copy and change with `with(_:)`.
public struct WebSocketTransportConfiguration: Sendable, Equatable {
    /// How long TCP + TLS + the WebSocket upgrade may take before the attempt fails with `.timeout`. Default 10 s.
    public var connectTimeout: TimeAmount
    /// The largest inbound message (after joining fragments); a larger one closes the connection with 1009.
    /// Default 16 MiB.
    public var maxInboundMessageSize: Int
    /// The most fragments one inbound message may arrive in. Default 65,536.
    public var maxInboundFragments: Int
    /// How long `close(code:)` waits for the peer's close frame before dropping the connection. Default 3 s.
    public var closeTimeout: TimeAmount
    /// Extra headers sent with the upgrade request (for example `User-Agent`). Default none.
    public var extraHeaders: [(name: String, value: String)]
    /// Offer RFC 7692 permessage-deflate (no context takeover either way); the server decides. Compressed messages
    /// are inflated before delivery, so users see no difference but fewer bytes. Default on.
    public var permessageDeflate: Bool

    public init(
        connectTimeout: TimeAmount = .seconds(10),
        maxInboundMessageSize: Int = 16 * 1024 * 1024,
        maxInboundFragments: Int = 65_536,
        closeTimeout: TimeAmount = .seconds(3),
        extraHeaders: [(name: String, value: String)] = [],
        permessageDeflate: Bool = true
    ) {
        self.permessageDeflate = permessageDeflate
        precondition(maxInboundMessageSize > 0 && maxInboundMessageSize <= Int(UInt32.max))
        self.connectTimeout = connectTimeout
        self.maxInboundMessageSize = maxInboundMessageSize
        self.maxInboundFragments = maxInboundFragments
        self.closeTimeout = closeTimeout
        self.extraHeaders = extraHeaders
    }

    /// The defaults listed above.
    public static let `default` = WebSocketTransportConfiguration()

    /// A copy changed by `update`.
    ///
    /// - Parameter update: Mutates the copy.
    /// - Returns: The changed copy.
    public func with(_ update: (inout WebSocketTransportConfiguration) -> Void) -> WebSocketTransportConfiguration {
        var copy = self
        update(&copy)
        return copy
    }

    public static func == (lhs: WebSocketTransportConfiguration, rhs: WebSocketTransportConfiguration) -> Bool {
        lhs.connectTimeout == rhs.connectTimeout && lhs.maxInboundMessageSize == rhs.maxInboundMessageSize
            && lhs.maxInboundFragments == rhs.maxInboundFragments && lhs.closeTimeout == rhs.closeTimeout
            && lhs.permessageDeflate == rhs.permessageDeflate
            && lhs.extraHeaders.elementsEqual(rhs.extraHeaders) { $0.name == $1.name && $0.value == $1.value }
    }
}
