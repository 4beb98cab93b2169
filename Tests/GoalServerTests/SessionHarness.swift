import GoalModel
import GoalStore
import GoalTestSupport
import GoalWire
import Logging
import NIOCore
import NIOEmbedded
import NIOPosix
import NIOWebSocket
import Prometheus
import Synchronization

@testable import GoalServer

/// Passes writes through and, on each flush, runs the test's hook from inside the flush (as NIO does when a flush
/// drains the socket, fails or closes the channel). The hook runs once per arming.
final class ReentrantWire: ChannelOutboundHandler {
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    var onFlush: ((ChannelHandlerContext) -> Void)?
    var flushes = 0

    func flush(context: ChannelHandlerContext) {
        flushes += 1
        context.flush()
        if let hook = onFlush {
            onFlush = nil
            hook(context)
        }
    }
}

/// One `SessionHandler` on an `EmbeddedChannel` with its collaborators around it (in-memory store, one shard on the
/// channel's loop, the loop's virtual clock): no socket, no wall clock. Open (as an accepted hello leaves it) or
/// awaiting its hello.
final class SessionHarness {
    let channel = EmbeddedChannel()
    let wire = ReentrantWire()
    let collaborators: SessionCollaborators
    let session: SessionHandler
    let threadPool = NIOThreadPool(numberOfThreads: 1)
    /// A count shared with the collaborators' closures.
    final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }

    /// The server's queued bytes together (the global cap's count).
    let queued = Counter()
    var queuedBytes: Int { queued.value.load(ordering: .relaxed) }
    /// The default league, the session's once it is open.
    let league: LeagueRuntime
    var shard: LoopShard { league.hub.shards[0] }
    private var nextRevision: Revision = 1

    /// - Parameter mode: the open session's stream; nil leaves the session awaiting its hello.
    init(limits: ServerLimits = ServerLimits(), mode: ServerMessage.SyncMode? = .live) throws {
        let storage = InMemoryLeagueStorage()
        let recovered = try storage.recover()
        let metrics = ServerMetrics(registry: PrometheusCollectorRegistry())
        let logger = Logger(label: "test.session")
        var leagueLimits = limits
        leagueLimits.fanoutCoalesceMilliseconds = 0
        var parts = DaemonParts(storage: storage)
        parts.clock = { Timestamp(millisecondsSince1970: 0) }
        let factory = LeagueRuntime.Factory(
            configuration: ServerConfiguration(stateDirectory: "/nonexistent", limits: leagueLimits),
            nodeID: "embedded",
            loops: [channel.embeddedEventLoop],
            threadPool: threadPool,
            metrics: metrics,
            parts: parts,
            compression: nil,
            logger: logger
        )
        let league = factory.make(.default, storage: storage, recovered: recovered, onFatalError: { _ in })
        self.league = league
        let queued = self.queued
        let ids = Counter()
        collaborators = SessionCollaborators(
            leagues: LeagueHost(
                defaultLeague: league,
                catalog: nil,
                factory: factory,
                idleSeconds: 300,
                logger: logger
            ),
            tokens: TokenDirectory(storage: storage),
            connections: ConnectionLimiter(maxTotal: 100, maxPerIP: 100, maxPerToken: 100),
            metrics: metrics,
            limits: limits,
            nodeID: "embedded",
            threadPool: threadPool,
            logger: logger,
            makeSessionID: { SessionID(ids.value.add(1, ordering: .relaxed).newValue) },
            adjustQueuedBytes: { queued.value.add($0, ordering: .relaxed).newValue }
        )
        let now = channel.embeddedEventLoop.now
        session = SessionHandler(
            collaborators: collaborators,
            shardIndex: 0,
            remoteAddress: "embedded",
            connectedAt: now,
            now: now
        )
        // Active, as an accepted connection is (an embedded connect opens no socket).
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).wait()
        try channel.pipeline.syncOperations.addHandler(wire)
        try channel.pipeline.syncOperations.addHandler(session)
        if let mode { open(mode: mode) }
    }

    /// Opens the session as an accepted hello would: registered with the shard, its stream in `mode`.
    private func open(mode: ServerMessage.SyncMode) {
        let hello = ClientMessage.Hello(token: "gt_x", clientInstance: .random())
        let token = StoredToken(
            name: "viewer",
            role: .viewer,
            secretHash: [],
            created: Timestamp(millisecondsSince1970: 0)
        )
        let identity = SessionIdentity(token: token, instance: hello.clientInstance, stream: .all)
        session.machine.inbound.authenticating(hello)
        _ = session.machine.inbound.opened(identity)
        session.machine.register(identity)
        session.league = league
        session.shard = shard
        let (head, _) = shard.register(session)
        session.machine.stream = SessionStream(mode: mode, since: mode == .snapshot ? nil : 0, head: head)
    }

    /// Runs what a test feeds the session's machine as the handler would (inside a section, actions performed after).
    func feed(_ event: (inout SessionMachine) -> [SessionAction]) {
        session.run { session.apply(event(&session.machine)) }
    }

    /// A client frame arriving from the socket (masking is the decoder's business: none here).
    func read(_ opcode: WebSocketOpcode, _ text: String) throws {
        try channel.writeInbound(WebSocketFrame(fin: true, opcode: opcode, data: ByteBuffer(string: text)))
    }

    /// A durable batch of `count` changesets of `bytes` bytes each (frame r is "<r>" padded with dots), with
    /// `replies` for this session after its last one; the shard takes it as from the hub.
    func deliver(count: Int, bytes: Int, replies: [String] = []) {
        var frames = ByteBuffer()
        var ends: [Int] = []
        let first = nextRevision
        for revision in first..<(first + Revision(count)) {
            let label = "<\(revision)>"
            frames.writeString(label + String(repeating: ".", count: max(0, bytes - label.utf8.count)))
            ends.append(frames.readableBytes)
        }
        nextRevision += Revision(count)
        let head = nextRevision - 1
        let answers = replies.map { Reply(session: session.id, frame: ByteBuffer(string: $0), after: head) }
        shard.deliver(
            DeliveryBatch(
                frames: frames,
                firstRevision: first,
                frameEnds: ends,
                head: head,
                headDigest: .genesis,
                replies: answers.isEmpty ? [:] : [0: answers],
                durableAt: .now()
            )
        )
    }

    /// Everything written to the socket so far, as one string (frames are raw bytes; text stays readable).
    func written() throws -> String {
        var all = ByteBuffer()
        while var buffer = try channel.readOutbound(as: ByteBuffer.self) { all.writeBuffer(&buffer) }
        return String(decoding: all.readableBytesView, as: UTF8.self)
    }

    /// The revisions of the changesets written, in order.
    func revisions(in text: String) -> [Revision] {
        text.split(separator: "<", omittingEmptySubsequences: false).dropFirst()
            .compactMap { Revision($0.prefix { $0 != ">" }) }
    }

    var isRegistered: Bool { shard.sessionCount == 1 }

    func finish() throws {
        _ = try? channel.finish()  // the session may have closed the channel already: nothing to finish then
        try threadPool.syncShutdownGracefully()
    }
}
