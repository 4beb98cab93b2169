import Foundation
import GoalStore
import Logging
import NIOConcurrencyHelpers
import NIOCore
import PostgresNIO

/// A goald node's id, held for as long as its store is open: a session-level advisory lock on a connection of its own
/// (`pg_try_advisory_lock(namespace, hashtext(id))`), which PostgreSQL releases the moment that session ends, so a
/// node killed with SIGKILL frees its id without any lease to expire. The `goald_nodes` table records who holds each
/// id (host, pid, port, state directory), only so that a refused node can be told.
///
/// A lost connection (a restarted database) loses the lock: it is taken again once the database is back, every
/// second; should another node have taken the id meanwhile, that is logged as an error until it is free again.
///
/// Threading: `Sendable`, lock-protected; every step runs on the store's event loop or Swift's cooperative pool and
/// none blocks a thread. Lifetime: from `claim` until `stop()`, which closes the connection (releasing the id); the
/// store stops it before its event loop shuts down.
final class PostgresNodeClaim: Sendable {
    /// The first key of the two-key advisory lock space for node ids (the int8 space of the migration and pruning
    /// locks does not overlap it).
    static let namespace: Int32 = 0x676F_616C

    /// How long a claim waits for a holder that has just died (its session ends once its socket closes).
    static let patience: Duration = .seconds(3)

    private struct State {
        var connection: PostgresConnection?
        var keeper: Task<Void, Never>?
        var claimed: String?
        /// True while the lock is held (false from a lost connection until the id is taken again).
        var holding = false
        var stopped = false
    }

    private enum Attempt {
        case held
        case heldBy(String)
    }

    private let configuration: PostgresStoreConfiguration
    private let eventLoop: any EventLoop
    private let logger: Logger
    private let state = NIOLockedValueBox(State())

    init(configuration: PostgresStoreConfiguration, eventLoop: any EventLoop, logger: Logger) {
        self.configuration = configuration
        self.eventLoop = eventLoop
        self.logger = logger
    }

    /// Takes `nodeID`, waiting at most `patience` for another holder to go away.
    /// - Throws: `StorageError.nodeIDTaken` naming both processes; `StorageError.unavailable` (database unreachable);
    ///   `StorageError.closed` after `stop()` or a second claim.
    func claim(
        _ nodeID: String,
        holder: String,
        patience: Duration = PostgresNodeClaim.patience
    ) async throws(StorageError) {
        let operation = "claimNode(\(nodeID))"
        let refused = state.withLockedValue { $0.stopped || $0.claimed != nil }
        if refused { throw StorageError.closed(call: operation) }
        let deadline = ContinuousClock.now + patience
        let connection = try await connect(operation)
        do {
            while true {
                switch try await attempt(nodeID, holder: holder, on: connection) {
                case .held:
                    try keep(nodeID, holder: holder, on: connection)
                    return
                case .heldBy(let other) where ContinuousClock.now >= deadline:
                    throw StorageError.nodeIDTaken(nodeID, holder: other, claimant: holder)
                case .heldBy:
                    try await Task.sleep(for: .milliseconds(100))
                }
            }
        } catch {
            try? await connection.close().get()  // the claim failed; a close error changes nothing
            state.withLockedValue { state in
                if state.connection === connection { state.connection = nil }
            }
            throw PostgresErrors.storageError(error, operation: operation, configuration: configuration)
        }
    }

    /// True while this process holds its claimed id (false before `claim`, after a lost connection until the id is
    /// taken again, and after `stop()`).
    var isHolding: Bool {
        state.withLockedValue { $0.holding && !$0.stopped }
    }

    /// Releases the id: closes the connection and ends the keeper. Idempotent.
    /// - Returns: The keeper task (cancelled): it may still be connecting on the store's event loop, which the owner
    ///   shuts down only once the task has ended.
    func stop() -> Task<Void, Never>? {
        let (connection, keeper) = state.withLockedValue { state in
            state.stopped = true
            state.keeper?.cancel()
            defer { state.connection = nil }
            return (state.connection, state.keeper)
        }
        try? connection?.close().wait()  // the server ends the session (and the lock) either way
        return keeper
    }

    // MARK: - Steps

    private func connect(_ operation: String) async throws(StorageError) -> PostgresConnection {
        do {
            let connection = try await PostgresConnection.connect(
                on: eventLoop,
                configuration: try configuration.connectionConfiguration(),
                id: 3,
                logger: PostgresLink.quiet
            ).get()
            let stopped = state.withLockedValue { state in
                if !state.stopped { state.connection = connection }
                return state.stopped
            }
            if stopped {
                try? await connection.close().get()  // stopped while connecting: nothing is to be held
                throw StorageError.closed(call: operation)
            }
            return connection
        } catch {
            throw PostgresErrors.storageError(error, operation: operation, configuration: configuration)
        }
    }

    /// Tries the lock once; when taken, records this holder. Otherwise returns the recorded holder.
    private func attempt(_ nodeID: String, holder: String, on connection: PostgresConnection) async throws -> Attempt {
        let taken = try await connection.query(
            "SELECT pg_try_advisory_lock(\(Self.namespace), hashtext(\(nodeID)))",
            logger: PostgresLink.quiet
        )
        var lockTaken = false
        for try await (value) in taken.decode(Bool.self) { lockTaken = value }
        guard lockTaken else {
            let rows = try await connection.query(
                """
                SELECT holder, to_char(claimed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
                FROM goald_nodes WHERE node_id = \(nodeID)
                """,
                logger: PostgresLink.quiet
            )
            for try await (recorded, since) in rows.decode((String, String).self) {
                return .heldBy("\(recorded), since \(since)")
            }
            return .heldBy("a node that has not recorded itself yet")
        }
        _ = try await connection.query(
            """
            INSERT INTO goald_nodes (node_id, holder) VALUES (\(nodeID), \(holder))
            ON CONFLICT (node_id) DO UPDATE SET holder = EXCLUDED.holder, claimed_at = now()
            """,
            logger: PostgresLink.quiet
        )
        return .held
    }

    /// Records the claim and starts the keeper, which takes the id again whenever its connection is lost.
    private func keep(_ nodeID: String, holder: String, on first: PostgresConnection) throws(StorageError) {
        let keeper = Task { [self] in
            var connection = first
            while true {
                try? await connection.closeFuture.get()  // lost, or closed by `stop()`: the loop below tells which
                state.withLockedValue { $0.holding = false }
                guard let next = await reclaim(nodeID, holder: holder) else { return }
                connection = next
            }
        }
        let stopped = state.withLockedValue { state in
            state.claimed = nodeID
            state.holding = true
            state.keeper = keeper
            return state.stopped
        }
        if stopped {
            keeper.cancel()
            throw StorageError.closed(call: "claimNode(\(nodeID))")
        }
    }

    /// Takes the id again on a new connection, once a second until it succeeds; nil once stopped.
    private func reclaim(_ nodeID: String, holder: String) async -> PostgresConnection? {
        var reportedHolder: String?
        while !state.withLockedValue({ $0.stopped }) {
            try? await Task.sleep(for: .seconds(1))  // cancelled by `stop()`: the condition ends the loop
            do {
                let connection = try await connect("claimNode(\(nodeID))")
                do {
                    switch try await attempt(nodeID, holder: holder, on: connection) {
                    case .held:
                        logger.notice("goald.node.claim_retaken", metadata: ["goal.node": "\(nodeID)"])
                        state.withLockedValue { $0.holding = true }
                        return connection
                    case .heldBy(let other):
                        if reportedHolder != other {
                            logger.error(
                                "goald.node.claim_lost",
                                metadata: ["goal.node": "\(nodeID)", "goal.node.holder": "\(other)"]
                            )
                            reportedHolder = other
                        }
                    }
                } catch {
                    logger.debug("the node id was not taken again", metadata: ["goal.error": "\(error)"])
                }
                try? await connection.close().get()  // not holding the id on it: the next try connects afresh
            } catch {
                logger.debug("the node id was not taken again", metadata: ["goal.error": "\(error)"])
            }
        }
        return nil
    }
}
