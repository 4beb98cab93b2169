import GoalClient
import GoalModel

/// The replica's rows of the match list — one per match, newest first (created revision descending, ties by id),
/// as `ReplicaState.matchesNewestFirst` orders them, without pending marks — kept up to date from the changesets
/// the replica applied instead of being re-sorted and rebuilt for every changeset.
///
/// `record(_:)` takes each `ReplicaUpdate` as the store sends it; `update(to:)` then brings the rows to the replica:
/// when the recorded changesets lead exactly from the rows' revision to the replica's, only the matches they touch
/// are removed and re-inserted (binary search) and only rows naming a touched player are rebuilt; otherwise (a
/// snapshot, another epoch, a batch published before its updates, more than `maxQueued` changesets while nobody
/// looked) every row is rebuilt once. Either way the rows equal a full rebuild.
///
/// Cost per live changeset: O(k log n) to find k touched rows, plus the array's shift on insert or remove; a
/// renamed or deleted player costs a pass over the rows. Value type; its view model keeps it on the main actor.
struct MatchListRows {
    /// The rows, newest first.
    private(set) var rows: [MatchRow] = []
    /// Full rebuilds so far (tests check that live changesets patch instead).
    private(set) var rebuilds = 0
    /// The created revision of every listed match: with its id, the row's sort key.
    private var created: [MatchID: Revision] = [:]
    /// The replica revision and epoch the rows show; nil revision: rebuild at the next update.
    private var revision: Revision?
    private var epoch: String?
    /// Changesets the replica applied that the rows may not show yet, oldest first (at most `maxQueued`).
    private var queued: [Changeset] = []

    /// The most changesets kept between two updates; beyond it the queue is dropped and the next update rebuilds.
    static let maxQueued = 1_024

    /// Notes an update the replica took; call it before `update(to:)` sees that replica.
    mutating func record(_ update: ReplicaUpdate) {
        switch update {
        case .changeset(let changeset) where queued.count < Self.maxQueued:
            queued.append(changeset)
        case .changeset, .snapshot:
            queued.removeAll()
            revision = nil
        }
    }

    /// Brings the rows to `replica`, each made or re-made row dated from `dates`.
    mutating func update(to replica: ReplicaState, dates: MatchDates = MatchDates()) {
        defer { queued.removeAll(keepingCapacity: true) }
        guard let shown = revision, epoch == replica.epoch, shown <= replica.revision else {
            return rebuild(replica, dates: dates)
        }
        var next = shown + 1
        var matches: Set<MatchID> = []
        var players: Set<PlayerID> = []
        for changeset in queued where changeset.revision >= next {
            guard changeset.revision == next else { return rebuild(replica, dates: dates) }
            next += 1
            for change in changeset.changes {
                switch change {
                case .matchUpserted(let match): matches.insert(match.id)
                case .matchDeleted(let id): matches.insert(id)
                case .playerUpserted(let player): players.insert(player.id)
                case .playerDeleted(let id): players.insert(id)
                case .ratingUpdated: break
                }
            }
        }
        guard next == replica.revision + 1 else { return rebuild(replica, dates: dates) }
        for id in matches { remove(id) }
        for id in matches {
            if let match = replica.matches[id] { insert(match, replica: replica, date: dates[id]) }
        }
        if !players.isEmpty {
            for index in rows.indices {
                guard let match = replica.matches[rows[index].id], !matches.contains(match.id),
                    match.allPlayers.contains(where: players.contains)
                else { continue }
                rows[index] = Self.row(match, in: replica, created: rows[index].created)
            }
        }
        revision = replica.revision
    }

    /// Takes the date `dates` now knows for match `id` into its row (a history answer arrived).
    mutating func redate(_ id: MatchID, dates: MatchDates) {
        guard let index = index(of: id) else { return }
        let row = rows[index]
        rows[index] = MatchRow(
            id: row.id,
            homePlayers: row.homePlayers,
            awayPlayers: row.awayPlayers,
            result: row.result,
            isPending: row.isPending,
            created: dates[id]
        )
    }

    /// The row of `id` among `rows`, by binary search; nil when it is not listed.
    func index(of id: MatchID) -> Int? {
        guard let revision = created[id] else { return nil }
        let index = insertionIndex(revision: revision, id: id)
        return index < rows.count && rows[index].id == id ? index : nil
    }

    /// A match's row: "A, B" per side, "2 : 1" unless `result` says otherwise.
    static func row(
        _ match: Match,
        in replica: ReplicaState,
        result: String? = nil,
        isPending: Bool = false,
        created: Timestamp? = nil
    )
        -> MatchRow
    {
        MatchRow(
            id: match.id,
            homePlayers: replica.names(match.homePlayers),
            awayPlayers: replica.names(match.awayPlayers),
            result: result ?? "\(match.homeGoals) : \(match.awayGoals)",
            isPending: isPending,
            created: created
        )
    }

    private mutating func rebuild(_ replica: ReplicaState, dates: MatchDates) {
        let matches = replica.matchesNewestFirst()
        rows = matches.map { Self.row($0, in: replica, created: dates[$0.id]) }
        created = Dictionary(uniqueKeysWithValues: matches.map { ($0.id, $0.created.revision) })
        revision = replica.revision
        epoch = replica.epoch
        rebuilds += 1
    }

    private mutating func remove(_ id: MatchID) {
        guard let index = index(of: id) else { return }
        rows.remove(at: index)
        created[id] = nil
    }

    private mutating func insert(_ match: Match, replica: ReplicaState, date: Timestamp?) {
        let index = insertionIndex(revision: match.created.revision, id: match.id)
        rows.insert(Self.row(match, in: replica, created: date), at: index)
        created[match.id] = match.created.revision
    }

    /// The first row that does not come before (revision, id) in newest-first order.
    private func insertionIndex(revision: Revision, id: MatchID) -> Int {
        var low = 0
        var high = rows.count
        while low < high {
            let middle = (low + high) / 2
            let other = rows[middle].id
            let otherRevision = created[other] ?? 0
            let before = otherRevision > revision || (otherRevision == revision && other < id)
            if before { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
