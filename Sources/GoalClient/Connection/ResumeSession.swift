public import Foundation
public import GoalModel
public import GoalWire

/// The one connection-and-resume state machine every stream client of goald shares (`GoalClient`, `goal-client
/// tail`, `goal-load`'s subscribers): which `hello` to send, how the inbound stream may go on (welcome, backlog or
/// snapshot, `caught_up`, live changesets), when the peer counts as dead, and when to reconnect after which backoff.
///
/// Events in, actions out: the caller's driver tells the machine what happened (a connection opened, a stream
/// message arrived, a timer fired, the connection closed) and carries out what the machine answers (open a
/// connection, wait, send this hello, deliver this changeset, abandon the connection and resume). The machine
/// never touches a socket, a clock or a random generator, and never decodes a changeset: stream messages are told
/// to it by revision and digest, so a caller may peek them cheaply (`ChangesetFrame.peek`) instead of decoding.
///
/// Resume rules (PROTOCOL.md §3): the hello carries the position — `since` (the last revision the caller holds),
/// `epoch` and `digest` (d_since) — when known. Changesets must follow the position one by one: one already held
/// is a duplicate to drop, one further ahead is a gap, and the caller must abandon the connection and resume. A
/// welcome of another epoch forgets the position (its history is not the server's) and must bring a snapshot; a
/// snapshot moves the position to its revision and digest.
///
/// Value type, `Sendable`; owned by one client and changed on that client's serial queue only. Lifetime: one per
/// client, across all of its connections.
public struct ResumeSession: Hashable, Sendable {
    /// Where the caller's copy of the stream stands: what the next hello resumes from.
    public struct Position: Hashable, Sendable {
        /// The last revision held; nil when nothing is held yet (the hello then asks for a snapshot).
        public var since: Revision?
        /// The database's epoch, once known.
        public var epoch: LeagueEpoch?
        /// The chained digest at `since` (d_since), once known.
        public var digest: Digest?

        public init(since: Revision? = nil, epoch: LeagueEpoch? = nil, digest: Digest? = nil) {
            self.since = since
            self.epoch = epoch
            self.digest = digest
        }

        /// The position a replica holds: nothing before its first sync, else its revision, epoch and digest.
        public init(resumingFrom replica: ReplicaState) {
            self.init(
                since: replica.hasSynced ? replica.revision : nil,
                epoch: replica.epoch,
                digest: replica.hasSynced ? replica.digest : nil
            )
        }
    }

    /// How far the current connection's stream has come.
    public enum StreamPhase: Hashable, Sendable {
        /// No connection is open.
        case disconnected
        /// Hello sent; waiting for `welcome`.
        case awaitingWelcome
        /// Reading the backlog up to `caught_up`.
        case backlog
        /// Welcomed with mode `snapshot`; waiting for `snapshot_begin`.
        case awaitingSnapshot
        /// Between `snapshot_begin` and `snapshot_end`.
        case snapshot(revision: Revision)
        /// Caught up: every changeset now arrives live.
        case live
    }

    /// A stream message, reduced to what resuming needs. Snapshot chunks, acks and errors are not events.
    public enum StreamEvent: Hashable, Sendable {
        case welcome(epoch: LeagueEpoch, head: Revision, headDigest: Digest, mode: ServerMessage.SyncMode)
        case changeset(revision: Revision, digest: Digest)
        case caughtUp(head: Revision)
        case snapshotBegin(revision: Revision)
        case snapshotEnd(revision: Revision, digest: Digest)

        /// The event a decoded message means, if any.
        public init?(_ message: ServerMessage) {
            switch message {
            case .welcome(let welcome):
                self = .welcome(
                    epoch: welcome.epoch,
                    head: welcome.head,
                    headDigest: welcome.headDigest,
                    mode: welcome.mode
                )
            case .changeset(let changeset): self = .changeset(revision: changeset.revision, digest: changeset.digest)
            case .delta(let delta): self = .changeset(revision: delta.revision, digest: delta.digest)
            case .caughtUp(let head): self = .caughtUp(head: head)
            case .snapshotBegin(let begin): self = .snapshotBegin(revision: begin.revision)
            case .snapshotEnd(let revision, let digest): self = .snapshotEnd(revision: revision, digest: digest)
            case .snapshotChunk, .ack, .rejected, .rateLimited, .overloaded, .error, .presenceState, .presence,
                .history:
                return nil
            }
        }
    }

    /// What a stream event means for the caller.
    public enum StreamVerdict: Hashable, Sendable {
        /// The session is authenticated. `live`: nothing to catch up. `epochChanged`: the caller's data belongs to
        /// another database and must be dropped (a snapshot follows).
        case welcomed(mode: ServerMessage.SyncMode, live: Bool, epochChanged: Bool)
        /// The next changeset: apply (or print, or count) it. The position has moved to it.
        case deliver
        /// A changeset the caller already holds: drop it.
        case duplicate
        /// The backlog is done; the session is live.
        case caughtUp
        /// A snapshot begins: collect its chunks.
        case snapshotStarted
        /// A snapshot ended: the caller's data is replaced by it; the position has moved to it; the session is live.
        case snapshotComplete(revision: Revision)
        /// The stream cannot go on (gap, message out of order): abandon the connection with `CloseCode.resync`
        /// (call `abandon`) and resume from the position.
        case resync(String)
        /// Nothing to do (a message that needs no answer now).
        case ignore
    }

    /// What the dead-peer check found.
    public enum HeartbeatVerdict: Hashable, Sendable {
        /// The peer was heard from recently: check again at this date.
        case alive(checkAgainAt: Date)
        /// Nothing was read for the idle timeout: abandon the connection with `CloseCode.heartbeatTimeout`.
        case dead(reason: String)
        /// No connection is open: nothing to watch.
        case notConnected
    }

    /// The backoff and failover rules (reconnect attempts, which server, waits, stops).
    public private(set) var reconnect: ReconnectMachine
    /// The server (an index into the caller's list) the current connection goes to, or the next one will.
    public var server: Int { reconnect.server }
    public private(set) var position: Position
    public private(set) var phase: StreamPhase = .disconnected
    /// Seconds without any inbound frame after which the peer is dead.
    public let idleTimeout: TimeInterval
    /// When the current connection last read anything.
    public private(set) var lastRead: Date = .distantPast
    /// The newest protocol version a hello may ask for: lowered by one each time a server refuses the version the
    /// hello asked for (4426: an older goald, a node not yet upgraded), so the next connection asks for one it
    /// speaks; a refusal of version 1 is final.
    public private(set) var protocolCeiling = WireProtocol.version
    /// The version the current connection's hello asked for.
    private var askedVersion = WireProtocol.version

    /// Creates a machine.
    /// - Parameters:
    ///   - position: Where to resume from (empty: the first hello asks for everything).
    ///   - policy: Reconnect backoff.
    ///   - idleTimeout: Seconds without reads after which the peer is dead (default `HeartbeatPolicy.standard`).
    ///   - serverCount: How many servers the caller fails over between (`ReconnectMachine`); default 1. The
    ///     position is kept across servers: nodes of one league share its epoch and digests, so the next server
    ///     answers the same hello with a backlog.
    ///   - server: The server to try first (default the first).
    public init(
        position: Position = Position(),
        policy: BackoffPolicy = .standard,
        idleTimeout: TimeInterval = HeartbeatPolicy.standard.idleTimeout,
        serverCount: Int = 1,
        server: Int = 0
    ) {
        self.position = position
        self.reconnect = ReconnectMachine(policy: policy, serverCount: serverCount, server: server)
        self.idleTimeout = idleTimeout
    }

    // MARK: Connection lifecycle

    /// Starts connecting (from idle, or again after a stop).
    public mutating func start() -> ReconnectMachine.Action { reconnect.start() }

    /// Stops for good at the caller's request: close any connection; nothing follows until `start`.
    public mutating func stop() -> ReconnectMachine.Action {
        phase = .disconnected
        return reconnect.stop()
    }

    /// The backoff timer fired.
    public mutating func retryTimerFired() -> ReconnectMachine.Action { reconnect.retryTimerFired() }

    /// Skips a pending wait (a user asked to refresh).
    public mutating func reconnectNow() -> ReconnectMachine.Action { reconnect.reconnectNow() }

    /// A connection was opened (or is opening and queues what is sent to it): send `hello` from the result.
    /// - Parameters:
    ///   - now: The caller's clock, for the dead-peer check.
    ///   - token: The bearer token.
    ///   - instance: The client instance.
    ///   - stream: `all` or `acks`.
    ///   - protocolVersion: the version to ask for: the newest by default, whose live changesets arrive lean
    ///     (`delta`) and need a replica to expand them; 1 for a reader that keeps none (`tail`).
    ///   - league: The league the session follows; nil names none (the default league; the hello is then what it
    ///     was before leagues, byte for byte). The position must be one of this league's stream.
    /// - Returns: The hello that resumes from the position.
    public mutating func connectionOpened(
        now: Date,
        token: String,
        instance: ClientInstanceID,
        stream: ClientMessage.StreamSelection = .all,
        protocolVersion: Int = WireProtocol.version,
        league: LeagueSlug? = nil
    ) -> ClientMessage.Hello {
        phase = .awaitingWelcome
        lastRead = now
        askedVersion = min(protocolVersion, protocolCeiling)
        return ClientMessage.Hello(
            protocolVersion: askedVersion,
            token: token,
            clientInstance: instance,
            since: position.since,
            epoch: position.epoch,
            digest: position.since == nil ? nil : position.digest,
            stream: stream,
            league: league
        )
    }

    /// The connection ended: `code` is the close code (nil when it dropped or was abandoned).
    /// - Parameter unit: A random unit in [0, 1) for the jitter of the next delay.
    public mutating func connectionClosed(code: CloseCode?, message: String, unit: Double) -> ReconnectMachine.Action {
        phase = .disconnected
        if code == .unsupportedProtocolVersion, askedVersion > WireProtocol.supportedVersions.lowerBound {
            // The server speaks an older version: ask for the one before next time, like any lost connection.
            protocolCeiling = askedVersion - 1
            return reconnect.connectionClosed(code: nil, message: message, unit: unit)
        }
        return reconnect.connectionClosed(code: code, message: message, unit: unit)
    }

    /// The connection could not be opened.
    /// - Parameter unit: A random unit in [0, 1) for the jitter of the next delay.
    public mutating func connectionFailed(_ failure: TransportFailure, unit: Double) -> ReconnectMachine.Action {
        phase = .disconnected
        return reconnect.connectionFailed(failure, unit: unit)
    }

    /// The caller gave up on the connection (a `resync` verdict, a dead peer, an unreadable message) and closed
    /// it: wait and resume from the position.
    /// - Parameter unit: A random unit in [0, 1) for the jitter of the next delay.
    public mutating func abandon(reason: String, unit: Double) -> ReconnectMachine.Action {
        connectionClosed(code: nil, message: reason, unit: unit)
    }

    // MARK: Heartbeat

    /// Anything at all was read (a message, a pong): the peer is alive.
    public mutating func read(now: Date) {
        lastRead = now
    }

    /// The dead-peer timer fired: is the peer still alive?
    public func heartbeatCheck(now: Date) -> HeartbeatVerdict {
        guard phase != .disconnected else { return .notConnected }
        let due = lastRead.addingTimeInterval(idleTimeout)
        if now >= due { return .dead(reason: "nothing read for \(Int(idleTimeout)) s") }
        return .alive(checkAgainAt: due)
    }

    // MARK: The stream

    /// True once `welcome` arrived on the current connection (mutations may be sent).
    public var isAuthenticated: Bool {
        switch phase {
        case .disconnected, .awaitingWelcome: false
        case .backlog, .awaitingSnapshot, .snapshot, .live: true
        }
    }

    /// True while a backlog is being read (before `caught_up`).
    public var isInBacklog: Bool { phase == .backlog }

    /// Reads one stream event of the current connection.
    public mutating func receive(_ event: StreamEvent) -> StreamVerdict {
        switch event {
        case .welcome(let epoch, let head, let headDigest, let mode):
            guard phase == .awaitingWelcome else { return .resync("a second welcome arrived") }
            reconnect.authenticated()
            let epochChanged = position.epoch != nil && position.epoch != epoch
            if epochChanged {
                guard mode != .backlog else { return .resync("a backlog of another epoch (\(epoch)) was offered") }
                position = Position()
            }
            position.epoch = epoch
            // Live from an empty position (an empty league): the caller now holds the head.
            if mode == .live, position.since == nil {
                position.since = head
                position.digest = headDigest
            }
            switch mode {
            case .backlog: phase = .backlog
            case .snapshot: phase = .awaitingSnapshot
            case .live: phase = .live
            }
            return .welcomed(mode: mode, live: mode == .live, epochChanged: epochChanged)
        case .changeset(let revision, let digest):
            switch phase {
            case .backlog, .live:
                let held = position.since ?? 0
                if revision <= held { return .duplicate }
                guard revision == held + 1 else { return .resync("gap: r\(held + 1) expected, r\(revision) arrived") }
                position.since = revision
                position.digest = digest
                return .deliver
            case .disconnected, .awaitingWelcome, .awaitingSnapshot, .snapshot:
                return .resync("a changeset arrived before the stream was ready for it")
            }
        case .caughtUp(let head):
            guard phase == .backlog else { return .ignore }
            let held = position.since ?? 0
            guard held >= head else { return .resync("caught_up at \(head) but only r\(held) arrived") }
            phase = .live
            return .caughtUp
        case .snapshotBegin(let revision):
            guard isAuthenticated else { return .resync("a snapshot arrived before welcome") }
            phase = .snapshot(revision: revision)
            return .snapshotStarted
        case .snapshotEnd(let revision, let digest):
            guard case .snapshot(let begun) = phase, begun == revision else {
                return .resync("snapshot_end r\(revision) arrived outside its snapshot")
            }
            position.since = revision
            position.digest = digest
            phase = .live
            return .snapshotComplete(revision: revision)
        }
    }

    /// Moves the position back to what the caller really holds, when its own check refused a delivered changeset
    /// (say, a digest that does not continue its chain); the caller then abandons the connection.
    public mutating func rewind(to position: Position) {
        self.position = position
    }
}
