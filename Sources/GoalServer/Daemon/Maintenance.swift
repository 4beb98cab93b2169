import CoreMetrics
import Foundation
import GoalModel
import GoalStore
import Logging
import NIOPosix
import Synchronization

/// The daemon's background chores: re-reads the tokens table every 2 s (tokens created or revoked by `goald token`
/// take effect; revoked tokens' sessions are closed with 4403) and a shared store's head (a node behind it catches
/// up), and every `interval` seconds forgets idle
/// exactly-once records (`Engine.forgetIdleClientRecords()`), prunes the changeset log by the retention policy and
/// runs a passive WAL checkpoint. Blocking store calls run on the thread pool.
///
/// Threading: `run()` is one task; `Sendable`. Lifetime: from `run()` until its task is cancelled.
struct Maintenance: Sendable {
    let core: ServerCore
    let interval: Int
    /// Asks the engine to catch up when the shared store's head is ahead of it (false only in tests).
    let followsOtherNodes: Bool
    let logger: Logger

    func run() async {
        var sinceHousekeeping = 0
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(2))  // cancelled: the check below ends the loop
            if Task.isCancelled { return }
            await refreshTokens()
            await readStoreHead()
            sinceHousekeeping += 2
            if sinceHousekeeping >= max(2, interval) {
                sinceHousekeeping = 0
                await housekeeping()
            }
        }
    }

    private func refreshTokens() async {
        let tokens = core.tokens
        do {
            let revoked = try await core.threadPool.runIfActive { try tokens.refresh() }
            if !revoked.isEmpty {
                logger.info("closing sessions of revoked tokens", metadata: ["goal.tokens": "\(revoked.map(\.name))"])
                core.hub.revoke(revoked)
            }
        } catch {
            logger.warning("could not re-read tokens", metadata: ["goal.error": "\(error)"])
        }
    }

    /// The store's head for `/healthz` and the metrics: another node sharing the store may have moved it. A store
    /// no other process writes (SQLite, in-memory) is not read: its head is this node's.
    private func readStoreHead() async {
        let storage = core.storage
        guard storage.isShared else {
            core.metrics.storeHead.set(Int64(clamping: core.engine.durableView.revision))
            return
        }
        do {
            let bounds = try await core.threadPool.runIfActive { try storage.logBounds() }
            core.storeHead.store(bounds.head, ordering: .relaxed)
            let local = core.engine.durableView.revision
            // A lost notification, or a lost LISTEN connection: the head check is what guarantees the catch-up.
            if bounds.head > local, followsOtherNodes { core.engine.requestCatchUp() }
            core.metrics.storeHead.set(Int64(clamping: bounds.head))
            core.metrics.trailingRevisions.set(Int64(clamping: bounds.head > local ? bounds.head - local : 0))
        } catch {
            logger.debug("could not read the store's head", metadata: ["goal.error": "\(error)"])
        }
    }

    private func housekeeping() async {
        let forgotten = await core.engine.forgetIdleClientRecords()
        if forgotten > 0 {
            logger.info("forgot idle client records", metadata: ["goal.forgotten": "\(forgotten)"])
        }
        let storage = core.storage
        do {
            let report = try await core.threadPool.runIfActive { () throws -> PruneReport in
                let now = Timestamp.now()
                let report = try storage.prune(now: now)
                try storage.checkpoint()
                return report
            }
            if report.deleted > 0 {
                logger.info(
                    "pruned changeset log",
                    metadata: [
                        "goal.deleted": "\(report.deleted)",
                        "goal.oldest": "\(report.oldestRetainedRevision.map(String.init) ?? "none")",
                    ]
                )
            }
        } catch {
            logger.warning("log maintenance failed", metadata: ["goal.error": "\(error)"])
        }
    }
}
