import CoreMetrics
import Foundation
import GoalModel
import GoalStore
import Logging
import NIOPosix
import ServiceLifecycle

/// The daemon's background chores: re-reads the tokens table every 2 s (tokens created or revoked by `goald token`
/// take effect; revoked tokens' sessions are closed with 4403, in every league), reads each loaded league's store
/// head on a shared store (a node behind it catches up), unloads the leagues idle past `leagues.idleSeconds`, and
/// every `interval` seconds, per loaded league, forgets idle exactly-once records (`Engine.forgetIdleClientRecords()`),
/// prunes the changeset log by the retention policy and runs a passive WAL checkpoint. Blocking store calls run on
/// the thread pool.
///
/// A swift-service-lifecycle `Service` in the daemon's own group (`DaemonComposition.services`).
///
/// Threading: `run()` is one task; `Sendable`. Lifetime: from `run()` until graceful shutdown or cancellation.
struct Maintenance: Service {
    let tokens: TokenDirectory
    /// Every league: revoked tokens' sessions are closed in each, heads read, idle ones unloaded.
    let leagues: LeagueHost
    let threadPool: NIOThreadPool
    let metrics: ServerMetrics
    /// Where the store's head is recorded for `/healthz`.
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
            for league in leagues.loaded { await readStoreHead(of: league) }
            await leagues.unloadIdle()
            sinceHousekeeping += 2
            if sinceHousekeeping >= max(2, interval) {
                sinceHousekeeping = 0
                for league in leagues.loaded { await housekeeping(of: league) }
            }
        }
    }

    private func refreshTokens() async {
        let tokens = self.tokens
        do {
            let revoked = try await threadPool.runIfActive { try tokens.refresh() }
            if !revoked.isEmpty {
                logger.info("closing sessions of revoked tokens", metadata: ["goal.tokens": "\(revoked.map(\.name))"])
                leagues.revoke(revoked)
            }
        } catch {
            logger.warning("could not re-read tokens", metadata: ["goal.error": "\(error)"])
        }
    }

    /// The store's head for `/healthz` and the metrics: another node sharing the store may have moved it. A store
    /// no other process writes (SQLite, in-memory) is not read: its head is this node's.
    /// The league's store head: for `/healthz` and, on a shared store, the catch-up a lost notification missed. The
    /// metrics are the default league's.
    private func readStoreHead(of league: LeagueRuntime) async {
        let storage = league.storage
        let engine = league.engine
        let storeHead = league.storeHead
        let isDefault = league.slug.isDefault
        guard storage.isShared else {
            if isDefault { metrics.storeHead.set(Int64(clamping: engine.durableView.revision)) }
            return
        }
        do {
            let bounds = try await threadPool.runIfActive { try storage.logBounds() }
            storeHead.record(bounds.head)
            let local = engine.durableView.revision
            // A lost notification, or a lost LISTEN connection: the head check is what guarantees the catch-up.
            if bounds.head > local, followsOtherNodes { engine.requestCatchUp() }
            guard isDefault else { return }
            metrics.storeHead.set(Int64(clamping: bounds.head))
            metrics.trailingRevisions.set(Int64(clamping: bounds.head > local ? bounds.head - local : 0))
        } catch {
            logger.debug("could not read the store's head", metadata: ["goal.error": "\(error)"])
        }
    }

    private func housekeeping(of league: LeagueRuntime) async {
        var logger = self.logger
        if !league.slug.isDefault { logger[metadataKey: "goal.league"] = "\(league.slug)" }
        let forgotten = await league.engine.forgetIdleClientRecords()
        if forgotten > 0 {
            logger.info("forgot idle client records", metadata: ["goal.forgotten": "\(forgotten)"])
        }
        let storage = league.storage
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
