import GoalClient
import GoalDeflate
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket

/// The state of one connection and every decision about it: opening, events, close handshake, failures.
///
/// Threading: confined to the connection's event loop (`WebSocketConnection` reaches it through a
/// `NIOLoopBoundBox`; the handlers run there). Events are therefore delivered one at a time, in order, and `finish`
/// guarantees exactly one terminal event. Lifetime: referenced by its channel's handlers and its connection.
final class ConnectionCore {
    enum Phase {
        /// TCP, TLS and the upgrade are in progress; commands wait in the mailbox.
        case connecting
        /// `.connected` was delivered; frames flow.
        case open
        /// This side sent a close frame and waits for the peer's.
        case closing
        /// The terminal event was delivered.
        case done
    }

    let eventLoop: any EventLoop
    let endpoint: ServerEndpoint
    let configuration: WebSocketTransportConfiguration
    let tls: ClientTLSContext
    let localAddress: SocketAddress?
    let mailbox: NIOLockedValueBox<OutboundMailbox>
    let logger: Logger
    private let events: @Sendable (TransportEvent) -> Void

    private(set) var phase = Phase.connecting
    /// The channel that connected (set when TCP connects; nil while attempts are in flight).
    private(set) var channel: (any Channel)?
    /// The frame handler's context once the upgrade completed; frames are written through it.
    var frameContext: ChannelHandlerContext?
    let observer = TLSHandshakeObserver()
    /// The first error seen while opening or while open, to explain what follows.
    var firstError: (any Error)?
    /// The server accepted permessage-deflate (the inflater sits before the aggregator).
    private(set) var negotiatedDeflate = false
    private var timer: Scheduled<Void>?

    init(
        eventLoop: any EventLoop,
        endpoint: ServerEndpoint,
        configuration: WebSocketTransportConfiguration,
        tls: ClientTLSContext,
        localAddress: SocketAddress?,
        mailbox: NIOLockedValueBox<OutboundMailbox>,
        logger: Logger,
        events: @escaping @Sendable (TransportEvent) -> Void
    ) {
        self.eventLoop = eventLoop
        self.endpoint = endpoint
        self.configuration = configuration
        self.tls = tls
        self.localAddress = localAddress
        self.mailbox = mailbox
        self.logger = logger
        self.events = events
        // Until the connection opens, appended commands wait here: no drain hop is needed for them.
        mailbox.withLockedValue { $0.drainPending = true }
    }

    // MARK: Opening

    /// Starts the connect timer and the TCP connection.
    func start() {
        guard case .connecting = phase else { return }
        let bound = NIOLoopBound(self, eventLoop: eventLoop)
        timer = eventLoop.scheduleTask(in: configuration.connectTimeout) {
            bound.value.connectTimedOut()
        }
        var bootstrap = ClientBootstrap(group: eventLoop).connectTimeout(configuration.connectTimeout)
        if let localAddress {
            bootstrap = bootstrap.bind(to: localAddress)
        }
        bootstrap = bootstrap.channelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                try bound.value.configurePipeline(channel)
            }
        }
        // An IP literal needs no resolver (goal-load opens thousands of connections to 127.0.0.1).
        let connected: EventLoopFuture<any Channel>
        // A host that is not an IP literal goes through the resolver below instead.
        if endpoint.hostIsIPAddress, let address = try? SocketAddress(ipAddress: endpoint.host, port: endpoint.port) {
            connected = bootstrap.connect(to: address)
        } else {
            connected = bootstrap.connect(host: endpoint.host, port: endpoint.port)
        }
        connected.whenComplete { result in
            switch result {
            case .success(let channel):
                bound.value.tcpConnected(channel)
            case .failure(let error):
                bound.value.failOpening(error)
            }
        }
    }

    private func configurePipeline(_ channel: any Channel) throws {
        let sync = channel.pipeline.syncOperations
        try sync.addHandler(tls.makeHandler(for: endpoint, observer: observer))
        let bound = NIOLoopBound(self, eventLoop: eventLoop)
        let upgrader = NIOWebSocketClientUpgrader(
            maxFrameSize: configuration.maxInboundMessageSize,
            automaticErrorHandling: false
        ) { channel, response in
            channel.eventLoop.makeCompletedFuture {
                try bound.value.upgraded(channel, extensions: response.headers["sec-websocket-extensions"])
            }
        }
        try sync.addHTTPClientHandlers(
            leftOverBytesStrategy: .forwardBytes,
            withClientUpgrade: (upgraders: [upgrader], completionHandler: { _ in })
        )
        try sync.addHandler(UpgradeResponseHandler(core: self), name: UpgradeResponseHandler.name)
    }

    private func tcpConnected(_ channel: any Channel) {
        self.channel = channel
        if case .done = phase {
            // Timed out or closed while the TCP connect was completing.
            channel.close(promise: nil)
        }
    }

    /// True for events from the channel this connection settled on. Connecting to a host name may try several
    /// addresses (happy eyeballs), each attempt with its own handlers reporting here; until one wins, all count.
    func isCurrent(_ channel: any Channel) -> Bool {
        self.channel.map { $0 === channel } ?? true
    }

    /// Called by the upgrader once the server answered 101: swaps the HTTP handler for the frame handlers (with
    /// the inflater first when the server accepted permessage-deflate).
    private func upgraded(_ channel: any Channel, extensions: [String]) throws {
        guard isCurrent(channel) else { return }
        let sync = channel.pipeline.syncOperations
        _ = sync.removeHandler(name: UpgradeResponseHandler.name)
        switch configuration.permessageDeflate
            ? PerMessageDeflate.clientOutcome(ofResponse: extensions)
            : extensions.isEmpty ? .declined : .invalid("the server answered extensions that were not offered")
        {
        case .declined:
            negotiatedDeflate = false
        case .accepted:
            negotiatedDeflate = true
            try sync.addHandler(
                PerMessageInflateHandler(limit: configuration.maxInboundMessageSize, keepsInflater: true)
            )
        case .invalid(let reason):
            // RFC 6455 §9.1: a client fails the connection when the server answers what it did not offer.
            fail(TransportFailure(.upgradeRejected, "the server's WebSocket upgrade is invalid: \(reason)"))
            return
        }
        try sync.addHandler(
            NIOWebSocketFrameAggregator(
                minNonFinalFragmentSize: 0,
                maxAccumulatedFrameCount: configuration.maxInboundFragments,
                maxAccumulatedFrameSize: configuration.maxInboundMessageSize
            )
        )
        try sync.addHandler(FrameHandler(core: self))
        guard case .connecting = phase else { return }
        cancelTimer()
        phase = .open
        logger.debug("WebSocket connected", metadata: ["goal.transport.endpoint": "\(endpoint)"])
        events(.connected)
        drainMailbox()
    }

    private func connectTimedOut() {
        guard case .connecting = phase else { return }
        let seconds = Double(configuration.connectTimeout.nanoseconds) / 1e9
        fail(TransportFailure(.timeout, "no WebSocket connection to \(endpoint) within \(seconds) s"))
    }

    /// An error before the upgrade completed: TLS errors end the attempt at once; others are kept to explain the
    /// close that follows.
    func openingError(_ error: any Error) {
        guard case .connecting = phase else { return }
        if firstError == nil { firstError = error }
        if error is NIOSSLError || error is NIOSSLExtraError {
            failOpening(error)
        }
    }

    /// Ends the opening attempt with the failure `error` stands for.
    func failOpening(_ error: any Error) {
        guard case .connecting = phase else { return }
        fail(FailureClassifier.failure(for: error, endpoint: endpoint, security: tls.security, observer: observer))
    }

    /// The server answered the upgrade request with something other than a valid 101.
    func upgradeRefused(_ head: HTTPResponseHead) {
        guard case .connecting = phase else { return }
        let detail: String
        if head.status == .switchingProtocols {
            detail =
                "the server answered 101 with an invalid WebSocket handshake (\(firstError.map { "\($0)" } ?? "?"))"
        } else {
            detail = "HTTP \(head.status.code) \(head.status.reasonPhrase) for \(endpoint.path)"
        }
        fail(TransportFailure(.upgradeRejected, "\(endpoint.hostHeader) refused the WebSocket upgrade: \(detail)"))
    }

    /// The channel closed: a failure while opening, `.closed(nil, …)` once open.
    func channelInactive() {
        switch phase {
        case .connecting:
            if let firstError {
                failOpening(firstError)
            } else {
                fail(
                    TransportFailure(
                        .cannotConnect,
                        "\(endpoint.hostHeader) closed the connection before the WebSocket upgrade completed"
                    )
                )
            }
        case .open, .closing:
            let reason = firstError.map { "connection dropped: \($0)" } ?? "connection dropped"
            finish(.closed(code: nil, reason: reason))
        case .done:
            break
        }
    }

    // MARK: Ending

    private func fail(_ failure: TransportFailure) {
        logger.debug(
            "WebSocket connection failed",
            metadata: ["goal.transport.endpoint": "\(endpoint)", "goal.transport.failure": "\(failure)"]
        )
        finish(.failed(failure))
    }

    /// Delivers the terminal event exactly once and tears everything down.
    ///
    /// - Parameters:
    ///   - event: `.closed` or `.failed`.
    ///   - closeChannel: False when a close frame is being written and the channel closes once it is out.
    func finish(_ event: TransportEvent, closeChannel: Bool = true) {
        if case .done = phase { return }
        phase = .done
        cancelTimer()
        mailbox.withLockedValue { $0.shut() }
        if closeChannel {
            channel?.close(promise: nil)
        }
        events(event)
    }

    /// Enters the closing phase and gives the peer `closeTimeout` to answer.
    func startClosing() {
        phase = .closing
        cancelTimer()
        let bound = NIOLoopBound(self, eventLoop: eventLoop)
        let timeout = configuration.closeTimeout
        timer = eventLoop.scheduleTask(in: timeout) {
            let seconds = Double(timeout.nanoseconds) / 1e9
            bound.value.finish(.closed(code: nil, reason: "the server did not answer the close within \(seconds) s"))
        }
    }

    func deliver(_ event: TransportEvent) {
        events(event)
    }

    private func cancelTimer() {
        timer?.cancel()
        timer = nil
    }
}
