import NIOConcurrencyHelpers
import NIOCore

/// A TLS connection that sends and receives raw bytes, for tests that speak broken HTTP or WebSocket on purpose
/// ("garbage before the upgrade", truncated frames, slowloris).
///
/// Threading: `Sendable`; methods may be called from any task. Lifetime: until either side closes.
public final class TestRawTLSConnection: Sendable {
    /// What arrived from the server.
    public enum Chunk: Sendable, Equatable {
        /// Bytes, in arrival order.
        case bytes([UInt8])
        /// The server closed the connection (or TLS failed: `reason` says which).
        case closed(reason: String)
    }

    private let channel: any Channel
    private let inbox: TestInbox<Chunk>

    private init(channel: any Channel, inbox: TestInbox<Chunk>) {
        self.channel = channel
        self.inbox = inbox
    }

    /// Connects over TLS; bytes sent before the handshake completes are held back until it does.
    ///
    /// - Parameter connector: Host, port and trust.
    /// - Returns: The connection.
    /// - Throws: `TransportFailure` when TCP cannot connect.
    public static func connect(_ connector: TestTLSConnector) async throws -> TestRawTLSConnection {
        let inbox = TestInbox<Chunk>()
        let channel = try await connector.connect { channel, _ in
            try channel.pipeline.syncOperations.addHandler(RawBytesHandler(inbox: inbox))
        }
        return TestRawTLSConnection(channel: channel, inbox: inbox)
    }

    /// Sends bytes as they are.
    public func send(_ bytes: [UInt8]) async throws {
        try await channel.writeAndFlush(channel.allocator.buffer(bytes: bytes)).get()
    }

    /// Sends a string's UTF-8 bytes as they are.
    public func send(_ text: String) async throws {
        try await send(Array(text.utf8))
    }

    /// The next chunk of bytes, or `.closed`.
    ///
    /// - Throws: `TestInboxError` on timeout, or when read again after `.closed`.
    public func next(timeout: Duration = .seconds(30)) async throws -> Chunk {
        try await inbox.next(timeout: timeout)
    }

    /// Everything the server sends until it closes the connection.
    ///
    /// - Parameter timeout: The limit for each wait.
    /// - Returns: All bytes received, and the close reason.
    public func readUntilClosed(timeout: Duration = .seconds(30)) async throws -> (bytes: [UInt8], reason: String) {
        var bytes: [UInt8] = []
        while true {
            switch try await next(timeout: timeout) {
            case .bytes(let chunk): bytes += chunk
            case .closed(let reason): return (bytes, reason)
            }
        }
    }

    /// Closes the connection.
    public func close() async {
        // Closing an already closed test connection has nothing to report.
        try? await channel.close().get()
    }
}

/// Pushes every inbound buffer into the inbox, then `.closed` once.
///
/// Threading: a `ChannelHandler`, confined to its channel's event loop.
private final class RawBytesHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let inbox: TestInbox<TestRawTLSConnection.Chunk>
    private var firstError: (any Error)?

    init(inbox: TestInbox<TestRawTLSConnection.Chunk>) {
        self.inbox = inbox
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        inbox.push(.bytes(Array(unwrapInboundIn(data).readableBytesView)))
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if firstError == nil { firstError = error }
    }

    func channelInactive(context: ChannelHandlerContext) {
        inbox.push(.closed(reason: firstError.map { "\($0)" } ?? "closed by the server"))
        inbox.finish()
        context.fireChannelInactive()
    }
}
