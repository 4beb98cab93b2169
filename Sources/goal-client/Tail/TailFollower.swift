import Foundation
import GoalClient
import GoalCommandLine
import GoalModel
import GoalReactive
import GoalWire

/// Follows goald's stream for `tail`: one WebSocket connection at a time, `hello` with `since` = the last revision
/// printed (so a reconnect resumes exactly after it), every changeset printed once, in order.
///
/// Resuming, gaps, snapshots, failover to the next server (same since, epoch and digest), reconnect backoff
/// (`BackoffPolicy.tail`: 1, 2, 4, 5, 5 … s once every server failed in a row) and the heartbeat are the shared
/// `ResumeDriver`'s; this type only reads the messages it hands over and prints.
///
/// Threading: the driver runs on a serial queue (`QueueScheduler`); this type's state is touched only in the driver's
/// delegate methods and `perform` bodies, with the driver's lock held: hence `@unchecked Sendable`. Lifetime: `run` →
/// the result, after `stop()` (Ctrl-C), a terminal close, or a refusal.
final class TailFollower: ResumeDriverDelegate, @unchecked Sendable {
    private let token: String
    /// The servers, in failover order, as the user gave them.
    private let servers: [String]
    /// The servers for messages.
    private var serverName: String { servers.joined(separator: ", ") }
    private let options: TailOptions
    /// The league followed (nil: the default league).
    private let league: LeagueSlug?
    /// Where result lines go (standard output; tests collect them).
    private let output: @Sendable (String) -> Void
    private let driver: ResumeDriver
    /// Guarded by the driver's lock.
    private var state = State()

    private struct State {
        var names: [PlayerID: String] = [:]
        var matches: [MatchID: Match] = [:]
        var everWelcomed = false
        var assembler: SnapshotAssembler?
        var serverError: String?
        var finish: ((Result<Void, CLIFailure>) -> Void)?
    }

    init(
        transport: any Transport,
        token: String,
        servers: [String],
        options: TailOptions,
        league: LeagueSlug? = nil,
        heartbeat: HeartbeatPolicy = .standard,
        output: @escaping @Sendable (String) -> Void = { Console.out($0) }
    ) {
        self.token = token
        self.servers = servers.isEmpty ? [""] : servers
        self.options = options
        self.league = league
        self.output = output
        driver = ResumeDriver(
            machine: ResumeSession(policy: .tail, idleTimeout: heartbeat.idleTimeout, serverCount: self.servers.count),
            options: ResumeDriver.Options(
                token: token,
                instance: ClientInstanceID.random(),
                // Protocol 1: tail prints each changeset whole and keeps no replica to expand lean ones with.
                protocolVersion: 1,
                heartbeat: heartbeat,
                failures: .fatalUntilWelcomed,
                league: league
            ),
            transport: transport,
            execution: .serial(QueueScheduler(name: "goal-client.tail")),
            jitter: ConstantJitter(0)
        )
        driver.attach(self)
    }

    /// The last revision printed (or the start point).
    private var last: Revision { driver.machine.position.since ?? 0 }

    /// Follows the stream from `options.since` (else from `seed`'s revision) until `stop()` or a failure.
    /// - Parameter seed: The league as read just before (names for the lines).
    func run(seed: ReplicaState) async -> Result<Void, CLIFailure> {
        await withCheckedContinuation { continuation in
            driver.perform { [self] in
                state.names = Dictionary(uniqueKeysWithValues: seed.players.lazy.map { ($0.key, $0.value.name) })
                state.matches = Dictionary(uniqueKeysWithValues: seed.matches.lazy.map { ($0.key, $0.value) })
                driver.updateMachine { $0.rewind(to: ResumeSession.Position(since: options.since ?? seed.revision)) }
                state.finish = { continuation.resume(returning: $0) }
                driver.start()
            }
        }
    }

    /// Ends following cleanly (Ctrl-C): closes the connection with 1000.
    func stop() {
        driver.perform { [self] in finish(.success(())) }
    }

    /// Stops the driver (closing with 1000) and hands `result` to `run`, once.
    private func finish(_ result: Result<Void, CLIFailure>) {
        guard let finish = state.finish else { return }
        state.finish = nil
        driver.stop()
        finish(result)
    }

    // MARK: ResumeDriverDelegate

    func resumeDriver(_ driver: ResumeDriver, connecting attempt: Int, server: Int, after loss: ResumeDriver.Loss?) {
        state.assembler = nil
        state.serverError = nil
        // Before the first welcome a failed attempt moves on quietly (the driver stops once every server failed).
        guard let loss, state.everWelcomed || !loss.isFailure else { return }
        Console.error(
            "goal-client: stream lost (\(TerminalText.escape(Self.describe(loss)))); resuming after r\(last) on "
                + TerminalText.escape(servers[server % servers.count])
        )
    }

    func resumeDriver(_ driver: ResumeDriver, waiting attempt: Int, delay: TimeInterval, after loss: ResumeDriver.Loss?)
    {
        let reason = loss.map(Self.describe) ?? ""
        Console.error(
            "goal-client: stream lost (\(TerminalText.escape(reason))); resuming after r\(last) in \(Int(delay)) s"
        )
    }

    func resumeDriver(_ driver: ResumeDriver, explainClose code: UInt16?, reason: String) -> (CloseCode?, String) {
        (code.map(CloseCode.init(rawValue:)), state.serverError ?? reason)
    }

    func resumeDriver(_ driver: ResumeDriver, disconnected loss: ResumeDriver.Loss?) {}

    func resumeDriver(_ driver: ResumeDriver, stopped reason: StopReason) {
        if case .terminal(let close, let message) = reason,
            let refusal = LeagueRefusal.failure(code: close, message: message, league: league, server: serverName)
        {
            finish(.failure(refusal))
            return
        }
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
    }

    func resumeDriver(_ driver: ResumeDriver, received bytes: [UInt8]) -> ResumeDriver.Verdict {
        let message: ServerMessage
        do {
            message = try ServerMessage.decode(bytes)
        } catch {
            return .abandon(.resync, reason: "unreadable message: \(error)")
        }
        if case .error(_, let text) = message { state.serverError = text }
        guard let event = ResumeSession.StreamEvent(message) else {
            if case .snapshotChunk = message, case .broken(let reason) = receiveSnapshot(message) {
                return .abandon(.resync, reason: reason)
            }
            return .proceed
        }
        if case .welcome(let welcome) = message, welcome.mode == .snapshot, !state.everWelcomed, options.since != nil,
            !options.allowSnapshot
        {
            finish(
                .failure(
                    .refused(
                        "goald cannot replay the changesets after r\(last): that revision is older than the server "
                            + "keeps (retention) or ahead of its head r\(welcome.head). Use a later --since, or "
                            + "--allow-snapshot to start from a snapshot at r\(welcome.head)"
                    )
                )
            )
            return .proceed
        }
        if case .snapshotEnd = message {
            // The snapshot's contents first: the machine moves the position only once they are complete.
            switch receiveSnapshot(message) {
            case .complete: break
            case .incomplete: return .proceed
            case .broken(let reason): return .abandon(.resync, reason: reason)
            }
        }
        switch driver.updateMachine({ $0.receive(event) }) {
        case .welcomed:
            state.everWelcomed = true
        case .snapshotStarted:
            if case .snapshotBegin(let begin) = message { state.assembler = SnapshotAssembler(begin) }
        case .deliver:
            if case .changeset(let changeset) = message { print(changeset, bytes: bytes) }
        case .resync(let reason):
            return .abandon(.resync, reason: reason)
        case .duplicate, .caughtUp, .snapshotComplete, .ignore:
            break
        }
        return .proceed
    }

    private func cannotConnect(_ message: String) -> CLIFailure {
        .cannotConnect(
            "cannot connect to \(serverName): \(CLIFailure.connectionDetail(message)); check that goald runs there "
                + "and --ca-file / --fingerprint"
        )
    }

    /// The loss as tail's "stream lost (…)" line names it.
    private static func describe(_ loss: ResumeDriver.Loss) -> String {
        switch loss {
        case .closed(let code, let message): "closed (\(code.map(String.init) ?? "no code")) \(message)"
        case .failed(let failure): failure.message
        case .abandoned(_, let reason): reason
        }
    }

    /// How far a snapshot being assembled has come.
    private enum SnapshotProgress {
        case incomplete
        case complete
        case broken(String)
    }

    /// Adds a chunk or the end to the snapshot being assembled; a complete one replaces the names and is announced.
    private func receiveSnapshot(_ message: ServerMessage) -> SnapshotProgress {
        guard var assembler = state.assembler else { return .broken("\(message.type) arrived outside a snapshot") }
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
                return .complete
            }
            state.assembler = assembler
            return .incomplete
        } catch {
            return .broken("bad snapshot: \(error)")
        }
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

extension ResumeDriver.Loss {
    /// True for a connection that could not be opened.
    fileprivate var isFailure: Bool {
        if case .failed = self { return true }
        return false
    }
}
