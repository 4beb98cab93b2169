public import GoalStore
import NIOConcurrencyHelpers

/// Writing a batch decided on a head that other nodes may have moved past (`SharedLeagueStorage`).
extension PostgresLeagueStorage {
    /// How long after a refused try the league counts as contended: its writes stay off the commit group.
    static let contendedFor: Duration = .seconds(5)

    /// Writes `batch`, decided on `base`, deciding it again (`rebase`) on whatever other nodes wrote first.
    ///
    /// First up to `PostgresWriter.unlockedAttempts` short tries of one statement each. A league no other node has
    /// written first for `contendedFor` makes its first try through the node's `PostgresCommitGroup`, in one statement
    /// with the other leagues' tries of the moment (one transaction and flush for all). Its other tries, and every try
    /// of a contended league, go alone on its own connection: a round holds the rows it has locked until its last call
    /// is done, so a row other nodes hold would stall every league of the round behind it. Then one transaction
    /// holding the row from its first refusal on (`PostgresWriter.appendHoldingTheRow`), which cannot be refused
    /// again. (Holding the row at once for a contended league was measured and not kept: ten leagues on three nodes
    /// gained 16 %, one league lost 5 %: docs/BENCHMARKS.md.)
    public func append(
        _ batch: StorageBatch,
        onto base: StoreHead,
        rebase: (ForeignChanges) throws(StorageError) -> StorageBatch
    ) throws(StorageError) -> StoreHead {
        var batch = batch
        var base = base
        var grouped = !isContended
        for _ in 0..<PostgresWriter.unlockedAttempts {
            guard !batch.isEmpty else { return base }
            let call = PostgresAppendCall(batch, onto: base)
            let outcome =
                grouped
                ? try shared.commits.append(call, in: configuration.namespace)
                : try writer.withConnection("append") { try call.run($0) }
            switch outcome {
            case .appended(let head):
                return head
            case .moved(let changes):
                lastRefusal.withLockedValue { $0 = .now }
                grouped = false
                batch = try rebase(changes)
                base = changes.head
            }
        }
        let (last, from) = (batch, base)
        let refusals = lastRefusal
        return try writer.withConnection("append") { connection in
            try PostgresWriter(connection: connection).appendHoldingTheRow(last, onto: from) {
                changes throws(StorageError) in
                refusals.withLockedValue { $0 = .now }  // still contended
                return try rebase(changes)
            }
        }
    }

    /// True while another node wrote this league first within `contendedFor`.
    private var isContended: Bool {
        lastRefusal.withLockedValue { last in last.map { ContinuousClock.now - $0 < Self.contendedFor } ?? false }
    }
}
