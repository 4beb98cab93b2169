import CoreMetrics
import Foundation
import GoalModel
import GoalStore
import Logging
import NIOPosix
import ServiceLifecycle

/// The daemon's background chores: re-reads the tokens table every 2 s (tokens created or revoked by `goald token`
/// take effect; revoked tokens' sessions are closed with 4403) and a shared store's head (a node behind it catches
/// up), and every `interval` seconds forgets idle
/// exactly-once records (`Engine.forgetIdleClientRecords()`), prunes the changeset log by the retention policy and
/// runs a passive WAL checkpoint. Blocking store calls run on the thread pool.
///
/// A swift-service-lifecycle `Service` in the daemon's own group (`DaemonComposition.services`).
///
/// Threading: `run()` is one task; `Sendable`. Lifetime: from `run()` until graceful shutdown or cancellation.
struct Maintenance: Service {
    let tokens: TokenDirectory
    /// Closes revoked tokens' sessions.
    let hub: Hub
    let storage: any LeagueStorage
    let engine: Engine
    let threadPool: NIOThreadPool
    let metrics: ServerMetrics
    /// Where the store's head is recorded for `/healthz`.
    let storeHead: ObservedStoreHead
    let interval: Int
    /// Asks the engine to catch up when the shared store's head is ahead of it (`DaemonParts.followsOtherNodes`).
    let followsOtherNodes: Bool
    let logger: Logger

    func run() async {
        await cancelWhenGracefulShutdown { await loop() }
    }

    private func loop() async {
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
        let tokens = self.tokens
        do {
            let revoked = try await threadPool.runIfActive { try tokens.refresh() }
            if !revoked.isEmpty {
                logger.info("closing sessions of revoked tokens", metadata: ["goal.tokens": "\(revoked.map(\.name))"])
                hub.revoke(revoked)
            }
        } catch {
            logger.warning("could not re-read tokens", metadata: ["goal.error": "\(error)"])
        }
    }

    /// The store's head for `/healthz` and the metrics: another node sharing the store may have moved it. A store
    /// no other process writes (SQLite, in-memory) is not read: its head is this node's.
    private func readStoreHead() async {
        let storage = self.storage
        guard storage.isShared else {
            metrics.storeHead.set(Int64(clamping: engine.durableView.revision))
            return
        }
        do {
            let bounds = try await threadPool.runIfActive { try storage.logBounds() }
            storeHead.record(bounds.head)
            let local = engine.durableView.revision
            // A lost notification, or a lost LISTEN connection: the head check is what guarantees the catch-up.
            if bounds.head > local, followsOtherNodes { engine.requestCatchUp() }
            metrics.storeHead.set(Int64(clamping: bounds.head))
            metrics.trailingRevisions.set(Int64(clamping: bounds.head > local ? bounds.head - local : 0))
        } catch {
            logger.debug("could not read the store's head", metadata: ["goal.error": "\(error)"])
        }
    }

    private func housekeeping() async {
        let forgotten = await engine.forgetIdleClientRecords()
        if forgotten > 0 {
            logger.info("forgot idle client records", metadata: ["goal.forgotten": "\(forgotten)"])
        }
        let storage = self.storage
        do {
            let report = try await threadPool.runIfActive { () throws -> PruneReport in
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
