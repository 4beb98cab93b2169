public import GoalModel
public import GoalStore
public import Logging
import NIOConcurrencyHelpers
import NIOCore
import PostgresNIO

/// The league in a PostgreSQL database (postgres-nio): the same tables' meaning as `SQLiteLeagueStorage`, the
/// schema created and versioned by goald (`PostgresSchema`). Several stores (goald nodes) may share one database:
/// `append` locks the league row, so commits have one order, and refuses a batch that does not follow the
/// stored head (`revisionGap`); `append(_:onto:rebase:)` decides a batch again when another node wrote first.
///
/// Two connections: one for writes (`append`, pruning, tokens, the epoch), one for reads, each used by one caller
/// at a time and opened again after it was lost. Every call blocks its thread (see `PostgresLink`). Other nodes'
/// commits (`watchHead`) and presence are heard on the node's one listening connection, shared by the home store and
/// every league store it opened (`PostgresChannels`).
///
/// Threading: `Sendable`; as `LeagueStorage` says. Lifetime: from `init` (which connects and migrates) until
/// `close()`; the store shares one event-loop thread, its listening connection and its group-commit connection with
/// the league stores it opened (`PostgresNodeShare`).
public final class PostgresLeagueStorage: SharedLeagueStorage {
    /// Where the store lives (`description` hides the password).
    public let configuration: PostgresStoreConfiguration
    public var kind: String { "postgres" }
    public var isShared: Bool { true }
    let retention: RetentionPolicy
    let writer: PostgresLink
    let reader: PostgresLink
    /// The event-loop thread, shared with the league stores this one opened (`openLeague`).
    let shared: PostgresNodeShare
    let logger: Logger
    /// Presence between nodes (PostgresLeagueStorage+Presence.swift).
    let presence = PostgresPresenceBus()
    var eventLoop: any EventLoop { shared.next }
    private let watcher = NIOLockedValueBox<PostgresHeadWatcher?>(nil)
    /// When another node last wrote this league first (a refused try): `PostgresLeagueStorage+Append.swift`.
    let lastRefusal = NIOLockedValueBox<ContinuousClock.Instant?>(nil)
    /// Whether `close()` gave back this store's share of `shared` (once only).
    private let released = NIOLockedValueBox(false)
    /// This node's id, once claimed (`claimNode`).
    let nodeClaim: PostgresNodeClaim

    /// Connects, creates or upgrades the schema, and checks that the league row is readable. This is the home
    /// store: the default league's, and the league catalog (`PostgresLeagueStorage+Leagues.swift`).
    /// - Parameters:
    ///   - configuration: The server, user, password and database.
    ///   - retention: What `prune(now:)` keeps.
    ///   - logger: Connection events (connects, reconnects) at debug.
    /// - Throws: `StorageError` when the server cannot be reached or the schema is newer than this goald.
    public convenience init(
        configuration: PostgresStoreConfiguration,
        retention: RetentionPolicy = .default,
        logger: Logger = Logger(label: "goald.postgres")
    ) throws(StorageError) {
        var home = configuration
        home.namespace = .home
        try self.init(
            configuration: home,
            retention: retention,
            logger: logger,
            shared: PostgresNodeShare(configuration: home, logger: logger)
        )
    }

    /// Opens the store of `configuration.namespace` on `shared` (a share of which it now holds, released by
    /// `close()`, or here when opening fails).
    init(
        configuration: PostgresStoreConfiguration,
        retention: RetentionPolicy,
        logger: Logger,
        shared: PostgresNodeShare
    ) throws(StorageError) {
        self.configuration = configuration
        self.retention = retention
        self.logger = logger
        self.shared = shared
        let loop = shared.next
        writer = PostgresLink(name: "writer", configuration: configuration, eventLoop: loop, logger: logger)
        reader = PostgresLink(name: "reader", configuration: configuration, eventLoop: loop, logger: logger)
        nodeClaim = PostgresNodeClaim(configuration: configuration, eventLoop: loop, logger: logger)
        do {
            try writer.withConnection("open") { connection in
                try PostgresSchema.migrate(connection, epoch: .random(), namespace: configuration.namespace)
                _ = try PostgresReader.bounds(connection)
            }
        } catch {
            shutDown()
            throw error
        }
    }

    public func recover() throws(StorageError) -> DurableLeague {
        try reader.withConnection("recover()") { try PostgresReader.recover($0) }
    }

    public func append(_ batch: StorageBatch) throws(StorageError) {
        guard !batch.isEmpty else { return }
        _ = try writer.withConnection("append") { connection in
            try connection.transaction { try PostgresWriter(connection: connection).appendAtHead(batch) }
        }
    }

    public func changes(after base: StoreHead) throws(StorageError) -> ForeignChanges {
        try reader.withConnection("changes(after:)") { try PostgresReader.changes($0, after: base) }
    }

    public func watchHead(_ wake: @escaping @Sendable (HeadNotice?) -> Void) {
        let started = PostgresHeadWatcher(
            channels: shared.channels,
            channel: configuration.namespace.headChannel,
            wake: wake
        )
        watcher.withLockedValue { $0 = started }
    }

    public func backlog(after: Revision, upTo: Revision, limit: Int) throws(StorageError) -> [LogFrame] {
        try reader.withConnection("backlog(after:upTo:limit:)") { connection in
            try connection.transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") {
                try PostgresReader.backlog(connection, after: after, upTo: upTo, limit: limit)
            }
        }
    }

    public func history(of entity: EntityRef, before: Revision?, limit: Int) throws(StorageError) -> HistoryPage {
        try reader.withConnection("history(of:before:limit:)") { connection in
            try connection.transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") {
                try PostgresHistoryReader.page(connection, of: entity, before: before, limit: limit)
            }
        }
    }

    public func logBounds() throws(StorageError) -> LogBounds {
        try reader.withConnection("logBounds()") { try PostgresReader.bounds($0) }
    }

    /// PostgreSQL checkpoints on its own.
    public func checkpoint() throws(StorageError) {
        try reader.withConnection("checkpoint()") { _ in }
    }

    public func epoch() throws(StorageError) -> LeagueEpoch {
        try reader.withConnection("epoch()") { try PostgresReader.epoch($0) }
    }

    public func rotateEpoch() throws(StorageError) -> LeagueEpoch {
        let epoch = LeagueEpoch.random()
        _ = try writer.withConnection("rotateEpoch()") { connection in
            try connection.execute("UPDATE league SET epoch = \(epoch.rawValue) WHERE id = 1")
        }
        return epoch
    }

    public func close() throws(StorageError) {
        shutDown()
    }

    /// Claims the node id database-wide; a league store's claim is the home store's, so it does nothing.
    public func claimNode(_ nodeID: String, holder: String) async throws(StorageError) {
        guard configuration.namespace == .home else { return }
        try await nodeClaim.claim(nodeID, holder: holder)
    }

    /// True while this store holds the node id it claimed (false while its connection is lost).
    package var holdsNodeClaim: Bool { nodeClaim.isHolding }

    /// Closes both connections and gives back the store's share of the event loop (the last share stops it).
    /// Idempotent.
    ///
    /// The LISTEN tasks (other nodes' commits, presence) are cancelled, but one may still be connecting or closing a
    /// connection on the store's event loop; shutting the loop down under it makes NIO refuse that work ("Cannot
    /// schedule tasks on an EventLoop that has already shut down"). So the loop stops once they have ended, from a
    /// task of its own, and never later than 10 s from now (postgres-nio's connect timeout bounds a connect in flight).
    private func shutDown() {
        var tasks = presence.stopNow()
        if let listening = watcher.withLockedValue({ $0 })?.stop() { tasks.append(listening) }
        if let claiming = nodeClaim.stop() { tasks.append(claiming) }
        writer.close()
        reader.close()
        let firstClose = released.withLockedValue { released in
            defer { released = true }
            return !released
        }
        guard firstClose else { return }
        let shared = self.shared
        let stopping = tasks
        Task {
            await BoundedWait.wait(atMost: .seconds(10)) {
                for task in stopping { await task.value }
            }
            await shared.release()
        }
    }
}
