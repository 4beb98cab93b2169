public import GoalModel

/// The daemon's durable storage: the league's entities, the changeset log with each changeset's exact frame
/// bytes, the exactly-once table, tokens and the epoch.
///
/// Every call is synchronous and may block on disk. Threading: conformers are `Sendable`; `append` is called
/// by ONE writer (the daemon's writer queue) and never concurrently with itself; every read (`recover`,
/// `backlog`, `history`, `logBounds`, token look-ups, `epoch`) may run on any thread at the same time as `append`
/// and sees the state before or after a whole batch, never part of one. `prune`, `checkpoint` and token writes may
/// run concurrently with `append`; they interleave at transaction boundaries.
///
/// Lifetime: a store is open from its initializer until `close()`; any call after `close()` throws
/// `StorageError.closed(call:)`, naming the call.
public protocol LeagueStorage: Sendable {
    /// Reads the durable league: the state rebuilt with `LeagueState.init(revision:players:matches:clientRecords:)`,
    /// the head digest, the epoch and the oldest revision still in the log.
    /// - Throws: `StorageError` when the stored parts cannot be read or rebuilt.
    func recover() throws(StorageError) -> DurableLeague

    /// Persists one batch in one durable transaction: each commit's log row and entity effects, then the client
    /// records. All or nothing.
    /// - Parameter batch: Commits contiguous with the head (first = head + 1, no gap), and client records.
    /// - Throws: `StorageError.revisionGap` (nothing written) or a write failure (nothing written).
    func append(_ batch: StorageBatch) throws(StorageError)

    /// Reads the changeset frames in (after, upTo], in revision order, at most `limit` of them.
    /// - Parameters:
    ///   - after: The revision the reader already has.
    ///   - upTo: The last revision wanted (usually the head noted at registration).
    ///   - limit: The page size; the next page starts after the last returned revision.
    /// - Returns: Consecutive frames starting at `after + 1`; empty when the range is empty.
    /// - Throws: `StorageError.backlogPruned` when `after + 1` is no longer in the log.
    func backlog(after: Revision, upTo: Revision, limit: Int) throws(StorageError) -> [LogFrame]

    /// The frames of the retained changesets that wrote one entity, newest first, read from an index kept in the
    /// same transaction as the log (so one page costs O(limit · log n), whatever the log's length).
    /// - Parameters:
    ///   - entity: The match or player.
    ///   - before: Only revisions below this one (the next page of a previous answer); nil for the newest.
    ///   - limit: At most this many frames (callers ask one more than they show, to diff the last one).
    /// - Returns: The page, with the log's bounds and whether the entity exists now, all from one snapshot.
    func history(of entity: EntityRef, before: Revision?, limit: Int) throws(StorageError) -> HistoryPage

    /// The oldest retained revision, the head and its digest.
    func logBounds() throws(StorageError) -> LogBounds

    /// Deletes changesets the retention policy no longer keeps, in small transactions. Never touches the
    /// exactly-once table or the entities.
    /// - Parameter now: The time the age limit is measured against.
    /// - Returns: How many changesets went, and the oldest revision left.
    func prune(now: Timestamp) throws(StorageError) -> PruneReport

    /// Runs a passive WAL checkpoint (never waits for readers or the writer); a no-op for stores without one.
    func checkpoint() throws(StorageError)

    /// Adds a token.
    /// - Throws: `tokenNameTaken`, `tokenHashTaken`, `invalidTokenHash`.
    func createToken(_ token: StoredToken) throws(StorageError)

    /// Every token, revoked ones included, oldest first.
    func tokens() throws(StorageError) -> [StoredToken]

    /// The token whose secret hashes to `secretHash` (revoked or not), if any.
    func token(secretHash: [UInt8]) throws(StorageError) -> StoredToken?

    /// Marks a token revoked at `time` (a token revoked before keeps its first revocation time).
    /// - Returns: The token as stored afterwards.
    /// - Throws: `tokenNotFound`.
    func revokeToken(named name: String, at time: Timestamp) throws(StorageError) -> StoredToken

    /// The database's epoch.
    func epoch() throws(StorageError) -> LeagueEpoch

    /// Replaces the epoch with a fresh random one (used by `goald restore`).
    /// - Returns: The new epoch.
    func rotateEpoch() throws(StorageError) -> LeagueEpoch

    /// Closes the store. Idempotent; later calls throw `StorageError.closed(call:)`.
    func close() throws(StorageError)

    /// What kind of store this is, for `/healthz` and logs: `sqlite`, `postgres`, `memory`.
    var kind: String { get }

    /// True when other processes (goald nodes) may write to this store, so its head may move without this one.
    var isShared: Bool { get }
}

extension LeagueStorage {
    public var kind: String { "custom" }
    public var isShared: Bool { false }
}
