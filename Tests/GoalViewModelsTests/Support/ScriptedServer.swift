import Foundation
import GoalClient
import GoalModel
import GoalReactive
import GoalTestSupport
import GoalWire

/// A scripted server for live-client tests: every `GoalClient` that connects gets a live `welcome`, and every
/// commit of `league` is pushed to every open connection as its changeset. `mutate` messages are applied to the
/// league (as the server's engine would) and answered with `ack` or `rejected` after the changeset, unless
/// `holding` is set. Thread-safe (`lock`); events reach clients through their schedulers.
final class ScriptedServer: Transport, @unchecked Sendable {
    let league: InMemoryLeague
    private let lock = NSRecursiveLock()
    private var connections: [Connection] = []
    private var subscription: (any Disposable)?
    private var _holding = false
    private var held: [(Connection, ClientMessage.Mutate)] = []

    init(league: InMemoryLeague) {
        self.league = league
        subscription = league.changesets.observeValues { [weak self] changeset in
            self?.lock.withLock {
                for connection in self?.connections ?? [] where connection.isOpen {
                    connection.events(.message(ServerMessage.changeset(changeset).encoded()))
                }
            }
        }
    }

    /// While true, mutations are received but not answered (they stay pending on the client).
    var holding: Bool {
        get { lock.withLock { _holding } }
        set { lock.withLock { _holding = newValue } }
    }

    /// Applies and answers every held mutation.
    func release() {
        let batch = lock.withLock {
            defer { held = [] }
            return held
        }
        for (connection, mutate) in batch { answer(mutate, on: connection) }
    }

    func connect(events: @escaping @Sendable (TransportEvent) -> Void) -> any TransportConnection {
        let connection = Connection(server: self, events: events)
        lock.withLock { connections.append(connection) }
        events(.connected)
        return connection
    }

    fileprivate func received(_ message: ClientMessage, on connection: Connection) {
        switch message {
        case .hello(let hello):
            lock.withLock {
                connection.instance = hello.clientInstance
                let snapshot = league.snapshot
                let welcome = ServerMessage.Welcome(
                    epoch: league.epoch,
                    head: snapshot.revision,
                    headDigest: snapshot.digest,
                    mode: .snapshot,
                    role: .admin,
                    serverTime: Timestamp(millisecondsSince1970: 0)
                )
                connection.events(.message(ServerMessage.welcome(welcome).encoded()))
                for frame in SnapshotChunker.frames(of: snapshot) { connection.events(.message(frame)) }
                connection.isOpen = true
            }
        case .presence:
            break  // this script keeps no presence
        case .mutate(let mutate):
            if holding {
                lock.withLock { held.append((connection, mutate)) }
            } else {
                answer(mutate, on: connection)
            }
        case .history:
            return  // this scripted server does not offer history (its welcome says so)
        }
    }

    private func answer(_ mutate: ClientMessage.Mutate, on connection: Connection) {
        lock.withLock {
            let outcome = league.apply(mutate.mutation(instance: connection.instance!), author: "tester")
            connection.events(.message(ServerMessage.outcome(seq: mutate.seq, outcome).encoded()))
        }
    }

    /// `@unchecked Sendable`: `instance` and `isOpen` change only under the server's `lock`.
    final class Connection: TransportConnection, @unchecked Sendable {
        weak var server: ScriptedServer?
        let events: @Sendable (TransportEvent) -> Void
        var instance: ClientInstanceID?
        var isOpen = false

        init(server: ScriptedServer, events: @escaping @Sendable (TransportEvent) -> Void) {
            self.server = server
            self.events = events
        }

        func send(_ message: [UInt8]) {
            guard let decoded = try? ClientMessage.decode(message) else { return }
            server?.received(decoded, on: self)
        }

        func ping() { events(.pong) }

        func close(code: UInt16) {}
    }
}
