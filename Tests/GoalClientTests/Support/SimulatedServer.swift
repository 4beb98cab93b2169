import Foundation
import GoalClient
import GoalModel
import GoalReactive
import GoalTestSupport
import GoalWire

/// A server simulated in process over an `InMemoryLeague`, speaking the real protocol to `GoalClient`s: `hello` is
/// answered with a backlog when the client's (epoch, since, digest) continue the league's history, else with a
/// chunked snapshot; commits are pushed live; `mutate` runs through the league's conflict engine (exactly once per
/// id, as goald's engine) and is answered after its changeset. Tests can drop every connection and lose answers.
///
/// Thread-safe: all state is guarded by `lock` (recursive: a commit broadcast re-enters). `@unchecked Sendable`
/// for that reason. Events reach clients through their own schedulers.
final class SimulatedServer: Transport, @unchecked Sendable {
    let league: InMemoryLeague
    private let lock = NSRecursiveLock()
    private var sessions: [Session] = []
    private var subscription: (any Disposable)?
    private var answersToLose = 0
    private var mutationsToOverload = 0
    private(set) var modes: [ServerMessage.SyncMode] = []

    init(league: InMemoryLeague) {
        self.league = league
        subscription = league.changesets.observeValues { [weak self] changeset in
            guard let self else { return }
            lock.withLock {
                for session in sessions where session.isLive {
                    session.send(.changeset(changeset))
                }
            }
        }
    }

    /// The next `count` mutation answers are not sent (the commit still happens): an ack lost with the connection.
    func loseAnswers(_ count: Int) {
        lock.withLock { answersToLose += count }
    }

    /// The next `count` mutations are answered `overloaded{seq}` and not processed, as goald's full engine inbox.
    func overload(_ count: Int) {
        lock.withLock { mutationsToOverload += count }
    }

    /// Closes every open connection with `code`.
    func dropAll(code: UInt16 = 1006) {
        let open = lock.withLock {
            defer { sessions = [] }
            return sessions
        }
        for session in open { session.events(.closed(code: code, reason: "dropped by the test")) }
    }

    func connect(events: @escaping @Sendable (TransportEvent) -> Void) -> any TransportConnection {
        let session = Session(server: self, events: events)
        lock.withLock { sessions.append(session) }
        events(.connected)
        return session
    }

    fileprivate func received(_ bytes: [UInt8], from session: Session) {
        guard let message = try? ClientMessage.decode(bytes) else { return }
        lock.withLock {
            switch message {
            case .hello(let hello):
                session.instance = hello.clientInstance
                greet(session, hello)
            case .presence:
                break  // the simulated server keeps no presence
            case .mutate(let mutate):
                guard let instance = session.instance else { return }
                if mutationsToOverload > 0 {
                    mutationsToOverload -= 1
                    session.send(.overloaded(seq: mutate.seq, retryAfterMilliseconds: 250))
                    return
                }
                let outcome = league.apply(mutate.mutation(instance: instance), author: "sim")
                if answersToLose > 0 {
                    answersToLose -= 1
                } else {
                    session.send(.outcome(seq: mutate.seq, outcome))
                }
            case .history:
                return  // this simulated server does not offer history (its welcome says so)
            }
        }
    }

    private func greet(_ session: Session, _ hello: ClientMessage.Hello) {
        let history = league.history
        let head = Revision(history.count)
        let headDigest = history.last?.digest ?? .genesis
        var mode = ServerMessage.SyncMode.snapshot
        if let since = hello.since, hello.epoch == league.epoch, since <= head,
            hello.digest == (since == 0 ? .genesis : history[Int(since) - 1].digest)
        {
            mode = since == head ? .live : .backlog
        }
        modes.append(mode)
        session.send(
            .welcome(
                ServerMessage.Welcome(
                    epoch: league.epoch,
                    head: head,
                    headDigest: headDigest,
                    mode: mode,
                    role: .admin,
                    serverTime: Timestamp(millisecondsSince1970: 0)
                )
            )
        )
        switch mode {
        case .backlog:
            for changeset in history[Int(hello.since!)...] { session.send(.changeset(changeset)) }
            session.send(.caughtUp(head: head))
        case .snapshot:
            for frame in SnapshotChunker.frames(of: league.snapshot, maxChunkBytes: 512) {
                session.events(.message(frame))
            }
        case .live:
            break
        }
        session.isLive = true
    }

    /// One connection. `@unchecked Sendable`: `instance` and `isLive` change only under the server's lock.
    final class Session: TransportConnection, @unchecked Sendable {
        weak var server: SimulatedServer?
        let events: @Sendable (TransportEvent) -> Void
        var instance: ClientInstanceID?
        var isLive = false

        init(server: SimulatedServer, events: @escaping @Sendable (TransportEvent) -> Void) {
            self.server = server
            self.events = events
        }

        func send(_ message: ServerMessage) { events(.message(message.encoded())) }

        func send(_ message: [UInt8]) { server?.received(message, from: self) }

        func ping() { events(.pong) }

        func close(code: UInt16) {}
    }
}
