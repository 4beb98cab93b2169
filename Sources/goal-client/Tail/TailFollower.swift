import Foundation
import GoalClient
import GoalCommandLine
import GoalModel
import GoalWire

/// Follows goald's stream for `tail`: one WebSocket connection at a time, `hello` with `since` = the last revision
/// printed (so a reconnect resumes exactly after it), every changeset printed once, in order.
///
/// Resuming, gaps, snapshots, failover to the next server (same since, epoch and digest) and reconnect backoff
/// (1, 2, 4, 5, 5 … s once every server failed in a row) are the shared `ResumeSession`'s rules; this type only
/// drives it on a transport and prints.
///
/// Threading: transport events hop onto `queue`; all state is touched there, under `lock`. `@unchecked Sendable`
/// because of that lock (uncontended: only `queue` takes it). Lifetime: `run` → the result, after `stop()`
/// (Ctrl-C), a terminal close, or a refusal.
final class TailFollower: @unchecked Sendable {
    /// tail's reconnect backoff: 1, 2, 4, 5, 5 … s, without jitter.
    static let backoff = BackoffPolicy(initial: 1, maximum: 5, multiplier: 2, jitter: 0)

    /// How often tail pings and checks the peer, and how long a silent peer counts as alive (PROTOCOL.md: 40 s).
    struct Heartbeat: Sendable {
        var pingInterval: TimeInterval = 15
        var idleTimeout = TimeInterval(WireProtocol.idleTimeoutSeconds)
    }

    private let transport: any Transport
    private let token: String
    /// The servers, in failover order, as the user gave them.
    private let servers: [String]
    /// The servers for messages.
    private var serverName: String { servers.joined(separator: ", ") }
    private let options: TailOptions
    /// Where result lines go (standard output; tests collect them).
    private let output: @Sendable (String) -> Void
    private let heartbeat: Heartbeat
    private let instance = ClientInstanceID.random()
    private let queue = DispatchQueue(label: "goal-client.tail")
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var state = State()

    private struct State {
        var names: [PlayerID: String] = [:]
        var matches: [MatchID: Match] = [:]
        var machine = ResumeSession()
        var connection: (any TransportConnection)?
        var generation = 0
        var everWelcomed = false
        var assembler: SnapshotAssembler?
        var serverError: String?
        var finish: ((Result<Void, CLIFailure>) -> Void)?

        /// The last revision printed (or the start point).
        var last: Revision { machine.position.since ?? 0 }
    }

    init(
        transport: any Transport,
        token: String,
        servers: [String],
        options: TailOptions,
        heartbeat: Heartbeat = Heartbeat(),
        output: @escaping @Sendable (String) -> Void = { Console.out($0) }
    ) {
        self.heartbeat = heartbeat
        self.transport = transport
        self.token = token
        self.servers = servers.isEmpty ? [""] : servers
        self.options = options
        self.output = output
    }

    /// Follows the stream from `options.since` (else from `seed`'s revision) until `stop()` or a failure.
    /// - Parameter seed: The league as read just before (names for the lines).
    func run(seed: ReplicaState) async -> Result<Void, CLIFailure> {
        await withCheckedContinuation { continuation in
            locked {
                state.names = Dictionary(uniqueKeysWithValues: seed.players.lazy.map { ($0.key, $0.value.name) })
                state.matches = Dictionary(uniqueKeysWithValues: seed.matches.lazy.map { ($0.key, $0.value) })
                state.machine = ResumeSession(
                    position: ResumeSession.Position(since: options.since ?? seed.revision),
                    policy: Self.backoff,
                    idleTimeout: heartbeat.idleTimeout,
                    serverCount: servers.count
                )
                state.finish = { continuation.resume(returning: $0) }
                execute(state.machine.start())
            }
        }
    }

    /// Ends following cleanly (Ctrl-C): closes the connection with 1000.
    func stop() {
        queue.async { self.locked { self.finish(.success(())) } }
    }

    private func locked(_ body: () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        body()
    }

    private func finish(_ result: Result<Void, CLIFailure>) {
        _ = state.machine.stop()
        state.connection?.close(code: CloseCode.normal.rawValue)
        state.connection = nil
        state.generation += 1
        let finish = state.finish
        state.finish = nil
        finish?(result)
    }

    /// Carries out one action of the shared machine.
    private func execute(_ action: ReconnectMachine.Action, reason: String = "") {
        switch action {
        case .connect:
            if !reason.isEmpty {
                let server = TerminalText.escape(servers[state.machine.server % servers.count])
                Console.error(
                    "goal-client: stream lost (\(TerminalText.escape(reason))); resuming after r\(state.last) on \(server)"
                )
            }
            connect()
        case .wait(_, let delay):
            Console.error(
                "goal-client: stream lost (\(TerminalText.escape(reason))); resuming after r\(state.last) in \(Int(delay)) s"
            )
            queue.asyncAfter(deadline: .now() + delay) { [weak self] in
                self?.locked {
                    guard let self, self.state.finish != nil else { return }
                    self.execute(self.state.machine.retryTimerFired())
                }
            }
        case .stop(let reason):
            switch reason {
            case .terminal(let close, let message) where close == .unauthorized || close == .tokenRevoked:
                finish(.failure(.unauthorized("\(serverName) refused the token: \(TerminalText.escape(message))")))
            case .terminal(_, let message):
                finish(.failure(.cannotConnect("\(serverName) ended the stream: \(TerminalText.escape(message))")))
            case .transportFailed(_, let message):
                finish(.failure(cannotConnect(message)))
            case .requested:
                finish(.success(()))
            }
        case .none:
            break
        }
    }

    private func cannotConnect(_ message: String) -> CLIFailure {
        .cannotConnect(
            "cannot connect to \(serverName): \(CLIFailure.connectionDetail(message)); check that goald runs there "
                + "and --ca-file / --fingerprint"
        )
    }

    private func connect() {
        guard state.finish != nil else { return }
        state.generation += 1
        let generation = state.generation
        state.assembler = nil
        state.serverError = nil
        state.connection = transport.connect(server: state.machine.server) { [weak self] event in
            guard let self else { return }
            self.queue.async { self.locked { self.handle(event, generation: generation) } }
        }
    }

    /// Closes the current connection on purpose (a gap, an unreadable message) and resumes after a backoff.
    private func abandon(because reason: String, code: CloseCode = .resync) {
        state.connection?.close(code: code.rawValue)
        state.connection = nil
        state.generation += 1
        execute(state.machine.abandon(reason: reason, unit: 0), reason: reason)
    }

    private func handle(_ event: TransportEvent, generation: Int) {
        guard generation == state.generation else { return }
        switch event {
        case .connected:
            // Protocol 1: tail prints each changeset whole and keeps no replica to expand lean ones with.
            let hello = state.machine.connectionOpened(
                now: Date(),
                token: token,
                instance: instance,
                stream: .all,
                protocolVersion: 1
            )
            state.connection?.send(ClientMessage.hello(hello).encoded())
            armHeartbeat(generation: generation)
        case .message(let bytes):
            state.machine.read(now: Date())
            receive(bytes)
        case .pong:
            state.machine.read(now: Date())
        case .closed(let code, let reason):
            state.connection = nil
            state.generation += 1
            let message = state.serverError ?? reason
            let action = state.machine.connectionClosed(
                code: code.map(CloseCode.init(rawValue:)),
                message: message,
                unit: 0
            )
            execute(action, reason: "closed (\(code.map(String.init) ?? "no code")) \(message)")
        case .failed(let failure):
            state.connection = nil
            state.generation += 1
            // Before the first welcome a failure is fatal (wrong address, untrusted certificate) once every server
            // failed: the machine moves on to the next server, or answers a wait (a full round failed) or a stop
            // (TLS). After it a server was reachable and trusted, so even a TLS failure (a handshake cut by a
            // restart) is retried.
            guard state.everWelcomed else {
                let action = state.machine.connectionFailed(failure, unit: 0)
                if case .connect = action {
                    execute(action)
                } else {
                    finish(.failure(cannotConnect(failure.message)))
                }
                return
            }
            execute(state.machine.abandon(reason: failure.message, unit: 0), reason: failure.message)
        }
    }

    /// Every `heartbeat.pingInterval`: asks the shared machine whether the peer is dead (nothing read for the idle
    /// timeout: abandon with 4010 and resume), else pings, so that an idle stream still reads pongs.
    private func armHeartbeat(generation: Int) {
        queue.asyncAfter(deadline: .now() + heartbeat.pingInterval) { [weak self] in
            self?.locked {
                guard let self, generation == self.state.generation, let connection = self.state.connection else {
                    return
                }
                switch self.state.machine.heartbeatCheck(now: Date()) {
                case .dead(let reason):
                    self.abandon(because: reason, code: .heartbeatTimeout)
                case .alive:
                    connection.ping()
                    self.armHeartbeat(generation: generation)
                case .notConnected:
                    break
                }
            }
        }
    }

    private func receive(_ bytes: [UInt8]) {
        let message: ServerMessage
        do {
            message = try ServerMessage.decode(bytes)
        } catch {
            abandon(because: "unreadable message: \(error)")
            return
        }
        if case .error(_, let text) = message { state.serverError = text }
        guard let event = ResumeSession.StreamEvent(message) else {
            if case .snapshotChunk = message { receiveSnapshot(message) }
            return
        }
        if case .welcome(let welcome) = message, welcome.mode == .snapshot, !state.everWelcomed, options.since != nil,
            !options.allowSnapshot
        {
            finish(
                .failure(
                    .refused(
                        "goald cannot replay the changesets after r\(state.last): that revision is older than the server "
                            + "keeps (retention) or ahead of its head r\(welcome.head). Use a later --since, or "
                            + "--allow-snapshot to start from a snapshot at r\(welcome.head)"
                    )
                )
            )
            return
        }
        if case .snapshotEnd = message {
            // The snapshot's contents first: the machine moves the position only once they are complete.
            guard receiveSnapshot(message) else { return }
        }
        switch state.machine.receive(event) {
        case .welcomed:
            state.everWelcomed = true
        case .snapshotStarted:
            if case .snapshotBegin(let begin) = message { state.assembler = SnapshotAssembler(begin) }
        case .deliver:
            if case .changeset(let changeset) = message { print(changeset, bytes: bytes) }
        case .resync(let reason):
            abandon(because: reason)
        case .duplicate, .caughtUp, .snapshotComplete, .ignore:
            break
        }
    }

    /// Adds a chunk or the end to the snapshot being assembled. - Returns: true when the snapshot is complete.
    @discardableResult
    private func receiveSnapshot(_ message: ServerMessage) -> Bool {
        guard var assembler = state.assembler else {
            abandon(because: "\(message.type) arrived outside a snapshot")
            return false
        }
        do {
            if let snapshot = try assembler.receive(message) {
                state.assembler = nil
                state.names = Dictionary(snapshot.players.map { ($0.id, $0.name) }, uniquingKeysWith: { $1 })
                state.matches = Dictionary(snapshot.matches.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
                if options.json {
                    output(
                        JSONDocument.object([
                            ("type", .string("snapshot")), ("revision", .uint(snapshot.revision)),
                            ("players", .int(snapshot.players.count)), ("matches", .int(snapshot.matches.count)),
                        ]).text
                    )
                } else {
                    output(
                        "r\(snapshot.revision) snapshot: \(snapshot.players.count) players, \(snapshot.matches.count) matches (history before it skipped)"
                    )
                }
                return true
            }
            state.assembler = assembler
        } catch {
            abandon(because: "bad snapshot: \(error)")
        }
        return false
    }

    private func print(_ changeset: Changeset, bytes: [UInt8]) {
        if options.json {
            let text = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\n", with: "")
            output(TerminalText.escapeJSON(text))
        } else {
            output(ChangesetLine.text(changeset, names: state.names, matches: state.matches))
        }
        for change in changeset.changes {
            switch change {
            case .playerUpserted(let player): state.names[player.id] = player.name
            case .playerDeleted(let id): state.names[id] = nil
            case .matchUpserted(let match): state.matches[match.id] = match
            case .matchDeleted(let id): state.matches[id] = nil
            case .ratingUpdated: break
            }
        }
    }
}
