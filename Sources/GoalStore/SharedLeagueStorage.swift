public import GoalModel

/// A store's version: a counter every written batch bumps by one, commits or not (a batch of rejections changes
/// only exactly-once records, and other writers must still see them). 0 for a new store.
public typealias StoreVersion = Int64

/// A store several goald nodes write at once (PostgreSQL). One order of revisions: each transaction of `append`
/// locks the store's head first and writes only on the head the batch was decided on; when another writer moved it
/// since `base`, `rebase` gets what that writer committed and decides the batch again on top of it, and the result
/// is written on the new head (docs/SCALING.md "One order").
///
/// Threading: as `LeagueStorage`; `append(_:onto:rebase:)` is called by one writer per node, and `rebase` runs on
/// that caller's thread, possibly several times for one batch and possibly while the store's head is locked, so it
/// must not wait for anything that waits for the writer. Lifetime: as `LeagueStorage`; `watchHead` stops with `close()`.
public protocol SharedLeagueStorage: LeagueStorage {
    /// Writes a batch decided on the store as it was at `base`, in a durable transaction that locks the head and
    /// writes nothing unless the head is the one the batch was decided on. When the store moved past `base`,
    /// `rebase` gets everything written since (other nodes' commits and client records) and returns the batch
    /// decided again on top of it; that batch is written instead, on the head it was decided on (again: each call of
    /// `rebase` gets what was written after the previous one's head).
    /// - Returns: The store's version after the transaction (and the head the batch was written on).
    /// - Throws: `StorageError` (nothing written); whatever `rebase` throws.
    func append(
        _ batch: StorageBatch,
        onto base: StoreHead,
        rebase: (ForeignChanges) throws(StorageError) -> StorageBatch
    ) throws(StorageError) -> StoreHead

    /// What other writers wrote after `base`: the commits after `base.revision` and the client records written
    /// after `base.version`, read in one consistent snapshot.
    /// - Throws: `StorageError.backlogPruned` when commits after `base.revision` were pruned already.
    func changes(after base: StoreHead) throws(StorageError) -> ForeignChanges

    /// Calls `wake` (on the store's own thread) whenever another writer may have moved the head: with the notice of
    /// a committed batch (this process's own writes included; the batch itself when the notification carried it),
    /// or nil after every (re)connection of the watching connection. Best effort: callers also poll.
    func watchHead(_ wake: @escaping @Sendable (HeadNotice?) -> Void)

    /// Takes `nodeID` for this process while the store stays open, so that two live nodes never share one id
    /// (presence member ids and logs carry it). A holder that just died (SIGKILL, a crash) is waited for a
    /// moment, since the database only notices its end once its connection closes. After a lost connection the
    /// claim is taken again on its own.
    /// - Parameter holder: This process, for the error another claimant gets (host, pid, port, state directory).
    /// - Throws: `StorageError.nodeIDTaken` naming both processes when another live node holds `nodeID`;
    ///   `StorageError.unavailable` when the database cannot be reached.
    func claimNode(_ nodeID: String, holder: String) async throws(StorageError)
}

/// Where a shared store stands: its head revision and its version (`StoreVersion`). Value type, `Sendable`.
public struct StoreHead: Hashable, Sendable, CustomStringConvertible {
    public var revision: Revision
    public var version: StoreVersion

    public init(revision: Revision, version: StoreVersion) {
        self.revision = revision
        self.version = version
    }

    public var description: String { "revision \(revision) (version \(version))" }
}

/// What other writers wrote to a shared store after a `StoreHead`: their commits in revision order (each
/// changeset with its exact stored frame), the exactly-once records they changed, and the head after them.
///
/// Value type, `Sendable`.
public struct ForeignChanges: Hashable, Sendable {
    public var commits: [LoggedCommit]
    public var clientRecords: [ClientRecord]
    public var head: StoreHead

    public init(commits: [LoggedCommit], clientRecords: [ClientRecord], head: StoreHead) {
        self.commits = commits
        self.clientRecords = clientRecords
        self.head = head
    }

    /// True when nothing was written after the base.
    public var isEmpty: Bool { commits.isEmpty && clientRecords.isEmpty }
}
