import Foundation
import GoalClient
import GoalModel
import GoalWire

/// Follows goald's stream for `tail`: one WebSocket connection at a time, `hello` with `since` = the last revision
/// printed (so a reconnect resumes exactly after it), every changeset printed once, in order.
///
/// Threading: transport events hop onto `queue`; all state is touched there, under `lock`. `@unchecked Sendable`
/// because of that lock (uncontended: only `queue` takes it). Lifetime: `run` → the result, after `stop()`
/// (Ctrl-C), a terminal close, or a refusal.
final class TailFollower: @unchecked Sendable {
    private let transport: any Transport
    private let token: String
    private let serverName: String
    private let options: TailOptions
    private let instance = ClientInstanceID.random()
    private let queue = DispatchQueue(label: "goal-client.tail")
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var state = State()

    private struct State {
        var names: [PlayerID: String] = [:]
        var matches: [MatchID: Match] = [:]
        var last: Revision = 0
        var connection: (any TransportConnection)?
        var generation = 0
        var welcomed = false
        var retries = 0
        var assembler: SnapshotAssembler?
        var serverError: String?
        var finish: ((Result<Void, CLIFailure>) -> Void)?
    }

    init(transport: any Transport, token: String, serverName: String, options: TailOptions) {
        self.transport = transport
        self.token = token
        self.serverName = serverName
        self.options = options
    }

    /// Follows the stream from `options.since` (else from `seed`'s revision) until `stop()` or a failure.
    /// - Parameter seed: The league as read just before (names for the lines).
    func run(seed: ReplicaState) async -> Result<Void, CLIFailure> {
        await withCheckedContinuation { continuation in
            locked {
                state.names = seed.players.mapValues(\.name)
                state.matches = seed.matches
                state.last = options.since ?? seed.revision
                state.finish = { continuation.resume(returning: $0) }
                connect()
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
        state.connection?.close(code: CloseCode.normal.rawValue)
        state.connection = nil
        state.generation += 1
        let finish = state.finish
        state.finish = nil
        finish?(result)
    }

    private func connect() {
        guard state.finish != nil else { return }
        state.generation += 1
        let generation = state.generation
        state.assembler = nil
        state.serverError = nil
        state.connection = transport.connect { [weak self] event in
            guard let self else { return }
            self.queue.async { self.locked { self.handle(event, generation: generation) } }
        }
    }

    private func handle(_ event: TransportEvent, generation: Int) {
        guard generation == state.generation else { return }
        switch event {
        case .connected:
            let hello = ClientMessage.Hello(token: token, clientInstance: instance, since: state.last, stream: .all)
            state.connection?.send(ClientMessage.hello(hello).encoded())
        case .message(let bytes):
            receive(bytes)
        case .pong:
            break
        case .closed(let code, let reason):
            state.connection = nil
            let message = state.serverError ?? reason
            if let code, CloseCode(rawValue: code).isTerminal {
                let close = CloseCode(rawValue: code)
                if close == .unauthorized || close == .tokenRevoked {
                    finish(.failure(.unauthorized("\(serverName) refused the token: \(TerminalText.escape(message))")))
                } else {
                    finish(.failure(.cannotConnect("\(serverName) ended the stream: \(TerminalText.escape(message))")))
                }
                return
            }
            retry(because: "closed (\(code.map(String.init) ?? "no code")) \(message)")
        case .failed(let failure):
            state.connection = nil
            guard state.welcomed, failure.kind != .tls else {
                finish(
                    .failure(
                        .cannotConnect(
                            "cannot connect to \(serverName): \(failure.message); check that goald runs there and --ca-file / --fingerprint"
                        )
                    )
                )
                return
            }
            retry(because: failure.message)
        }
    }

    /// Reconnects after a short backoff (1, 2, 4, 5, 5 … s), resuming after the last revision printed.
    private func retry(because reason: String) {
        state.retries += 1
        let delay = min(5.0, pow(2.0, Double(state.retries - 1)))
        state.generation += 1
        Console.error(
            "goal-client: stream lost (\(TerminalText.escape(reason))); resuming after r\(state.last) in \(Int(delay)) s"
        )
        queue.asyncAfter(deadline: .now() + delay) { [weak self] in
            self?.locked { self?.connect() }
        }
    }

    private func receive(_ bytes: [UInt8]) {
        let message: ServerMessage
        do {
            message = try ServerMessage.decode(bytes)
        } catch {
            retry(because: "unreadable message: \(error)")
            return
        }
        switch message {
        case .welcome(let welcome):
            if welcome.mode == .snapshot, !state.welcomed, options.since != nil, !options.allowSnapshot {
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
            state.welcomed = true
            state.retries = 0
        case .snapshotBegin(let begin):
            state.assembler = SnapshotAssembler(begin)
        case .snapshotChunk, .snapshotEnd:
            receiveSnapshot(message)
        case .changeset(let changeset):
            guard changeset.revision > state.last else { return }
            guard changeset.revision == state.last + 1 else {
                state.connection?.close(code: CloseCode.normal.rawValue)
                retry(because: "gap before r\(changeset.revision)")
                return
            }
            print(changeset, bytes: bytes)
        case .error(_, let text):
            state.serverError = text
        case .caughtUp, .ack, .rejected, .rateLimited, .overloaded:
            break
        }
    }

    private func receiveSnapshot(_ message: ServerMessage) {
        guard var assembler = state.assembler else { return }
        do {
            if let snapshot = try assembler.receive(message) {
                state.assembler = nil
                state.names = Dictionary(snapshot.players.map { ($0.id, $0.name) }, uniquingKeysWith: { $1 })
                state.matches = Dictionary(snapshot.matches.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
                state.last = snapshot.revision
                if options.json {
                    Console.out(
                        JSONValue.object([
                            ("type", .string("snapshot")), ("revision", .uint(snapshot.revision)),
                            ("players", .int(snapshot.players.count)), ("matches", .int(snapshot.matches.count)),
                        ]).text
                    )
                } else {
                    Console.out(
                        "r\(snapshot.revision) snapshot: \(snapshot.players.count) players, \(snapshot.matches.count) matches (history before it skipped)"
                    )
                }
            } else {
                state.assembler = assembler
            }
        } catch {
            retry(because: "bad snapshot: \(error)")
        }
    }

    private func print(_ changeset: Changeset, bytes: [UInt8]) {
        if options.json {
            let text = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\n", with: "")
            Console.out(TerminalText.escapeJSON(text))
        } else {
            Console.out(ChangesetLine.text(changeset, names: state.names, matches: state.matches))
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
        state.last = changeset.revision
    }
}
