import GoalClient
import GoalTransport
public import NIOCore
public import NIOHTTP1
import NIOPosix
public import NIOWebSocket

/// A raw WebSocket client for protocol tests that need full control: it sends any frame (fragments, pings,
/// oversized, unmasked or reserved-opcode frames) and reports every frame the server sends, pings included,
/// without answering them. Same TLS setup as `WebSocketTransport`.
///
/// Threading: `Sendable`; every method may be called from any task. Inbound frames are queued in order and read
/// with `next(timeout:)`. Lifetime: the connection lives until the server closes it, `close` completes the
/// handshake, or `disconnect` drops it; the last `Received` is always `.closed`.
public final class TestWebSocketClient: Sendable {
    /// What the server sent, one complete message or control frame at a time.
    public enum Received: Sendable, Equatable, CustomStringConvertible {
        /// A text message (fragments joined), as raw bytes.
        case text([UInt8])
        /// A binary message (fragments joined).
        case binary([UInt8])
        /// A text or binary message with RSV1 set (permessage-deflate), its payload as it came: still compressed.
        case compressed([UInt8])
        /// A ping, with its payload (not answered automatically).
        case ping([UInt8])
        /// A pong, with its payload.
        case pong([UInt8])
        /// The server's close frame (code nil when its body was empty), or the connection dropping (code nil,
        /// reason saying so). Always the last element.
        case closed(code: UInt16?, reason: String)

        /// The text of a `.text` message, nil for anything else.
        public var text: String? {
            if case .text(let bytes) = self { return String(decoding: bytes, as: UTF8.self) }
            return nil
        }

        public var description: String {
            switch self {
            case .text(let bytes): "text(\(String(decoding: bytes, as: UTF8.self)))"
            case .binary(let bytes): "binary(\(bytes.count) bytes)"
            case .compressed(let bytes): "compressed(\(bytes.count) bytes)"
            case .ping(let bytes): "ping(\(bytes.count) bytes)"
            case .pong(let bytes): "pong(\(bytes.count) bytes)"
            case .closed(let code, let reason): "closed(\(code.map(String.init) ?? "nil"), \(reason))"
            }
        }
    }

    /// The server's 101 response.
    public let upgradeResponse: HTTPResponseHead
    private let channel: any Channel
    private let inbox: TestInbox<Received>

    private init(channel: any Channel, upgradeResponse: HTTPResponseHead, inbox: TestInbox<Received>) {
        self.channel = channel
        self.upgradeResponse = upgradeResponse
        self.inbox = inbox
    }

    /// Connects over TLS and upgrades to WebSocket.
    ///
    /// - Parameters:
    ///   - connector: Host, port, path and trust (see `TestTLSConnector`).
    ///   - headers: Extra upgrade request headers.
    ///   - maxFrameSize: The largest inbound frame or message accepted. Default 16 MiB.
    ///   - timeout: Limit for TLS + upgrade (a guard against hangs).
    /// - Returns: The open client.
    /// - Throws: `TransportFailure` (`.tls`, `.cannotConnect`, `.upgradeRejected` with the status, `.timeout`).
    public static func connect(
        _ connector: TestTLSConnector,
        headers: [(name: String, value: String)] = [],
        maxFrameSize: Int = 16 * 1024 * 1024,
        timeout: TimeAmount = .seconds(10)
    ) async throws -> TestWebSocketClient {
        let inbox = TestInbox<Received>()
        let endpoint = connector.endpoint
        let box = UpgradeBox()
        let connecting: @Sendable () async throws -> any Channel = {
            try await connector.connect { channel, observer in
                let promise = channel.eventLoop.makePromise(of: HTTPResponseHead.self)
                box.set(promise)
                let upgrader = NIOWebSocketClientUpgrader(maxFrameSize: maxFrameSize, automaticErrorHandling: false) {
                    channel,
                    head in
                    channel.eventLoop.makeCompletedFuture {
                        let sync = channel.pipeline.syncOperations
                        _ = sync.removeHandler(name: TestUpgradeRequestHandler.name)
                        try sync.addHandler(
                            NIOWebSocketFrameAggregator(
                                minNonFinalFragmentSize: 0,
                                maxAccumulatedFrameCount: 1 << 20,
                                maxAccumulatedFrameSize: maxFrameSize
                            )
                        )
                        try sync.addHandler(TestFrameHandler(inbox: inbox))
                        promise.succeed(head)
                    }
                }
                try channel.pipeline.syncOperations.addHTTPClientHandlers(
                    leftOverBytesStrategy: .forwardBytes,
                    withClientUpgrade: (upgraders: [upgrader], completionHandler: { _ in })
                )
                let request = TestUpgradeRequestHandler(
                    endpoint: endpoint,
                    headers: headers,
                    promise: promise,
                    classify: { error in connector.failure(for: error, observer: observer) }
                )
                try channel.pipeline.syncOperations.addHandler(request, name: TestUpgradeRequestHandler.name)
            }
        }
        let channel: any Channel
        do {
            channel = try await connecting()
        } catch {
            // The initializer may have run on a channel that never connected (refused): complete its promise.
            box.value?.fail(error)
            throw error
        }
        guard let upgrade = box.value else { preconditionFailure("channel initializer did not run") }
        let deadline = channel.eventLoop.scheduleTask(in: timeout) {
            upgrade.fail(TransportFailure(.timeout, "no WebSocket upgrade from \(endpoint) within \(timeout)"))
            channel.close(promise: nil)
        }
        defer { deadline.cancel() }
        let head = try await upgrade.futureResult.get()
        return TestWebSocketClient(channel: channel, upgradeResponse: head, inbox: inbox)
    }

    /// Sends one text message in a single frame.
    public func send(text: String) async throws {
        try await send(frame: .text, payload: Array(text.utf8))
    }

    /// Sends one text message in a single frame.
    public func send(text: [UInt8]) async throws {
        try await send(frame: .text, payload: text)
    }

    /// Sends one binary message in a single frame.
    public func send(binary: [UInt8]) async throws {
        try await send(frame: .binary, payload: binary)
    }

    /// Sends one frame exactly as described: any opcode (also reserved ones), fragments (`fin: false`), unmasked
    /// (`masked: false`, which a server must refuse) or with RSV1 set.
    ///
    /// - Parameters:
    ///   - opcode: The frame's opcode, for example `.ping` or `WebSocketOpcode(encodedWebSocketOpcode: 3)!`.
    ///   - fin: False for a non-final fragment.
    ///   - payload: The application data, any size.
    ///   - masked: Whether to mask it, as RFC 6455 requires of clients. Default true.
    ///   - rsv1: Sets the RSV1 bit (no extension is negotiated, so servers must refuse it). Default false.
    public func send(
        frame opcode: WebSocketOpcode,
        fin: Bool = true,
        payload: [UInt8],
        masked: Bool = true,
        rsv1: Bool = false
    ) async throws {
        let frame = WebSocketFrame(
            fin: fin,
            rsv1: rsv1,
            opcode: opcode,
            maskKey: masked ? .random() : nil,
            data: channel.allocator.buffer(bytes: payload)
        )
        try await channel.writeAndFlush(frame).get()
    }

    /// Sends a close frame (code and reason) without waiting; the server's answer arrives as `.closed`.
    public func close(code: UInt16, reason: String = "") async throws {
        let body = CloseFramePayload(code: code, reason: reason).encoded(allocator: channel.allocator)
        let frame = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: body)
        try await channel.writeAndFlush(frame).get()
    }

    /// Stops reading from the socket (the server's writes back up into the kernel buffers and then its queues),
    /// for slow-consumer tests. What was already read stays readable with `next`.
    public func pauseReading() async throws {
        try await channel.setOption(ChannelOptions.autoRead, value: false).get()
    }

    /// Reads from the socket again after `pauseReading()`.
    public func resumeReading() async throws {
        try await channel.setOption(ChannelOptions.autoRead, value: true).get()
        channel.read()
    }

    /// Drops the TCP connection without a close frame.
    public func disconnect() async {
        // Closing an already closed test connection has nothing to report.
        try? await channel.close().get()
    }

    /// The next frame or message from the server.
    ///
    /// - Parameter timeout: A guard against hangs.
    /// - Returns: The oldest unread `Received`.
    /// - Throws: `TestInboxError` on timeout, or when read again after `.closed`.
    public func next(timeout: Duration = .seconds(30)) async throws -> Received {
        try await inbox.next(timeout: timeout)
    }

    /// Reads until `predicate` holds.
    ///
    /// - Returns: Everything read, the matching element last.
    public func collect(
        timeout: Duration = .seconds(30),
        until predicate: (Received) -> Bool
    ) async throws -> [Received] {
        try await inbox.collect(timeout: timeout, until: predicate)
    }

    /// The next text message, skipping pings and pongs.
    ///
    /// - Throws: `TestClientError.unexpected` when anything else (binary, close) comes first.
    public func nextText(timeout: Duration = .seconds(30)) async throws -> String {
        while true {
            let received = try await next(timeout: timeout)
            switch received {
            case .text:
                return received.text!
            case .ping, .pong:
                continue
            case .binary, .compressed, .closed:
                throw TestClientError.unexpected(received.description)
            }
        }
    }
}

/// A raw test client met something the test did not expect.
public enum TestClientError: Error, Sendable, Equatable {
    /// What arrived instead of what was asked for.
    case unexpected(String)
}
