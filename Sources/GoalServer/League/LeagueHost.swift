import Foundation
import GoalLocking
import GoalModel
import GoalStore
import GoalWire
import Logging
import NIOCore
import NIOPosix

/// Every league this daemon serves, loaded on first use and unloaded when idle.
///
/// The default league is loaded at start-up and never unloaded: its store is the home store the daemon opened (the
/// tokens and the league catalog live there). Another league is loaded when a session or a REST call first asks for
/// it (`acquire`: the catalog is read, the league's store opened and recovered, a `LeagueRuntime` built), and held by
/// a lease per user (a session from its hello until it ends, a REST call while it runs). A league without leases for
/// `idleSeconds` is unloaded by `unloadIdle` (`Maintenance` asks every 2 s): its engine drained and stopped, its
/// presence stopped, its store closed. A league whose store fails is unloaded at once and its sessions closed with
/// `internal` (the next hello loads it again from its store); only the default league's failure stops the daemon.
///
/// Threading: `Sendable`. `acquire`, `create`, `rename` and `delete` block on the store (call them on the thread pool,
/// never on an event loop); loads and deletions are serialised by `loading`, so one league is never opened twice and
/// never reopened while it is being deleted. The map of loaded leagues is under `state`'s lock, never held across a
/// call out. Lifetime: the daemon's; `stopAll` unloads every league but the default one at shutdown.
final class LeagueHost: Sendable {
    /// The default league, always loaded.
    let defaultLeague: LeagueRuntime
    /// The home store's catalog; nil for a store that has none (then only the default league exists).
    let catalog: (any LeagueCatalog)?
    private let factory: LeagueRuntime.Factory
    private let idleSeconds: Double
    private let logger: Logger
    private let state = LockedValue(State())
    /// Held while a league is loaded or deleted (blocking store calls on the thread pool).
    private let loading = LockedValue(())

    private struct Entry {
        let runtime: LeagueRuntime
        var leases = 0
        var idleSince: ContinuousClock.Instant
        /// The task relaying presence between nodes (only with a presence bus).
        var presenceTask: Task<Void, Never>?
    }

    private struct State {
        var loaded: [LeagueSlug: Entry] = [:]
        /// Leagues being deleted: not loaded again meanwhile.
        var deleting: Set<LeagueSlug> = []
    }

    init(
        defaultLeague: LeagueRuntime,
        catalog: (any LeagueCatalog)?,
        factory: LeagueRuntime.Factory,
        idleSeconds: Double,
        logger: Logger
    ) {
        self.defaultLeague = defaultLeague
        self.catalog = catalog
        self.factory = factory
        self.idleSeconds = idleSeconds
        self.logger = logger
    }

    /// The leagues loaded now, the default league first.
    var loaded: [LeagueRuntime] {
        [defaultLeague] + state.withLock { $0.loaded.values.map(\.runtime) }.sorted { $0.slug < $1.slug }
    }

    /// How many leagues besides the default one are loaded.
    var loadedCount: Int { state.withLock { $0.loaded.count } }

    /// The league `slug`, loaded if it was not, with a lease the caller gives back with `release`. Blocks on the
    /// store when it loads: call it on the thread pool.
    /// - Returns: nil when there is no such league.
    /// - Throws: `StorageError` when the catalog or the league's store cannot be read.
    func acquire(_ slug: LeagueSlug) throws(StorageError) -> LeagueRuntime? {
        if slug.isDefault { return defaultLeague }
        if let runtime = lease(slug) { return runtime }
        guard let catalog else { return nil }
        // Typed throws do not pass through `withLock`'s rethrows: the load's outcome comes out as a value.
        return try loading.withLock { _ in Result { () throws(StorageError) in try load(slug, from: catalog) } }.get()
    }

    /// Loads `slug` (under `loading`): nil when there is no such league.
    private func load(_ slug: LeagueSlug, from catalog: any LeagueCatalog) throws(StorageError) -> LeagueRuntime? {
        if let runtime = lease(slug) { return runtime }  // another caller loaded it meanwhile
        if state.withLock({ $0.deleting.contains(slug) }) { return nil }
        guard try catalog.league(slug) != nil else { return nil }
        let storage = try catalog.openLeague(slug)
        let recovered: DurableLeague
        do {
            recovered = try storage.recover()
        } catch {
            try? storage.close()  // best effort while failing: the recovery error is the one to report
            throw error
        }
        let runtime = factory.make(slug, storage: storage, recovered: recovered) { [weak self] error in
            self?.failed(slug, error)
        }
        let task: Task<Void, Never>? =
            runtime.presence.hasBus ? Task { [registry = runtime.presence] in await registry.run() } : nil
        state.withLock {
            $0.loaded[slug] = Entry(runtime: runtime, leases: 1, idleSince: .now, presenceTask: task)
        }
        logger.info(
            "league loaded",
            metadata: ["goal.league": "\(slug)", "goal.head": "\(recovered.head)", "goal.epoch": "\(recovered.epoch)"]
        )
        return runtime
    }

    private func lease(_ slug: LeagueSlug) -> LeagueRuntime? {
        state.withLock { state in
            guard var entry = state.loaded[slug] else { return nil }
            entry.leases += 1
            state.loaded[slug] = entry
            return entry.runtime
        }
    }

    /// Gives back a lease `acquire` handed out. Any thread.
    func release(_ runtime: LeagueRuntime) {
        guard !runtime.slug.isDefault else { return }
        state.withLock { state in
            // An entry that is gone (failed, deleted) or was replaced by a newer load keeps no count for this one.
            guard var entry = state.loaded[runtime.slug], entry.runtime === runtime else { return }
            entry.leases = max(0, entry.leases - 1)  // a caller's second release frees no one else's lease
            if entry.leases == 0 { entry.idleSince = .now }
            state.loaded[runtime.slug] = entry
        }
    }

    /// Unloads every league without leases for `idleSeconds`.
    /// - Returns: The slugs unloaded.
    @discardableResult
    func unloadIdle(now: ContinuousClock.Instant = .now) async -> [LeagueSlug] {
        let limit = Duration.milliseconds(Int64(idleSeconds * 1_000))
        let idle = state.withLock { state -> [Entry] in
            let slugs = state.loaded.filter { $0.value.leases == 0 && now - $0.value.idleSince >= limit }.map(\.key)
            return slugs.compactMap { state.loaded.removeValue(forKey: $0) }
        }
        for entry in idle {
            await unload(entry, code: .shuttingDown, message: "the league was unloaded; reconnect")
            logger.info("league unloaded (idle)", metadata: ["goal.league": "\(entry.runtime.slug)"])
        }
        return idle.map(\.runtime.slug)
    }

    /// Drains and stops a league taken out of the map: engine, sessions (none for an idle league), presence, store.
    private func unload(_ entry: Entry, code: WireErrorCode, message: String) async {
        let runtime = entry.runtime
        await runtime.engine.stop()
        await runtime.hub.closeAll(code, message)
        entry.presenceTask?.cancel()
        await runtime.presence.stop()
        do {
            try runtime.storage.close()
        } catch {
            logger.warning(
                "a league's store did not close cleanly",
                metadata: ["goal.league": "\(runtime.slug)", "goal.error": "\(error)"]
            )
        }
    }

    /// A league's engine stopped on a store failure: unload it and close its sessions (`internal`, or
    /// `unknown_league` when the league is no longer in the catalog: another node deleted it); the next hello loads
    /// it again from its store.
    private func failed(_ slug: LeagueSlug, _ error: StorageError) {
        logger.error(
            "a league's store failed; unloading it",
            metadata: ["goal.league": "\(slug)", "goal.error": "\(error)"]
        )
        guard let entry = state.withLock({ $0.loaded.removeValue(forKey: slug) }) else { return }
        Task {
            let (code, message) = await closeAfterFailure(of: slug)
            await unload(entry, code: code, message: message)
        }
    }

    /// How the sessions of a league whose store failed are closed: `unknown_league` when the catalog no longer has
    /// it (deleted on another node, which drops its schema under this one), otherwise `internal` (reconnecting loads
    /// it again). A catalog that cannot be read says `internal`.
    func closeAfterFailure(of slug: LeagueSlug) async -> (WireErrorCode, String) {
        let failed = (WireErrorCode.internalError, "the league's store failed; reconnect to reload it")
        guard let catalog else { return failed }
        do {
            let info = try await factory.threadPool.runIfActive { try catalog.league(slug) }
            return info == nil ? (.unknownLeague, "league \(slug) was deleted") : failed
        } catch {
            return failed  // the catalog is unreadable too (the store is down): reconnecting is the advice
        }
    }

    /// Deletes a league: its sessions are closed (`unknown_league`, 4404), it is unloaded and its data removed
    /// (`LeagueCatalog.deleteLeague`). Nobody loads it again meanwhile.
    /// - Throws: `leagueNotFound`, `defaultLeague`, or the store's failure.
    func delete(_ slug: LeagueSlug) async throws(StorageError) {
        guard !slug.isDefault else { throw .defaultLeague(operation: "deleted") }
        guard let catalog else { throw .leagueNotFound(slug) }
        let entry = state.withLock { state in
            state.deleting.insert(slug)
            return state.loaded.removeValue(forKey: slug)
        }
        defer { state.withLock { _ = $0.deleting.remove(slug) } }
        if let entry { await unload(entry, code: .unknownLeague, message: "league \(slug) was deleted") }
        do {
            try await factory.threadPool.runIfActive { try catalog.deleteLeague(slug) }
        } catch let error as StorageError {
            throw error
        } catch {
            throw .database(operation: "deleteLeague(_:)", detail: "\(error)")  // the pool stopped: shutting down
        }
        logger.info("league deleted", metadata: ["goal.league": "\(slug)"])
    }

    /// Stops every league but the default one (the daemon stops the default league itself).
    func stopAll(code: WireErrorCode, message: String) async {
        let entries = state.withLock { state -> [Entry] in
            defer { state.loaded = [:] }
            return Array(state.loaded.values)
        }
        for entry in entries { await unload(entry, code: code, message: message) }
    }

    /// Closes the revoked tokens' sessions in every loaded league.
    func revoke(_ tokens: [StoredToken]) {
        for league in loaded { league.hub.revoke(tokens) }
    }
}
