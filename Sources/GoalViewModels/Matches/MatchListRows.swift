import GoalClient
import GoalModel

/// The replica's rows of the match list — one per match, newest first (created revision descending, ties by id),
/// as `ReplicaState.matchesNewestFirst` orders them, without pending marks — kept up to date from the changesets
/// the replica applied instead of being re-sorted and rebuilt for every changeset.
///
/// `record(_:)` takes each `ReplicaUpdate` as the store sends it; `update(to:dates:)` then brings the rows to the
/// replica and returns the exact `RowChanges` from the rows before: when the recorded changesets lead exactly from
/// the rows' revision to the replica's, only the matches they touch are removed and re-inserted (by binary search)
/// and only the rows naming a touched player (found through an index of each player's listed matches) or
/// re-dated by `redate(_:)` are re-made; otherwise (a snapshot, another epoch, a batch published before its
/// updates, more than `maxQueued` changesets while nobody looked) every row is rebuilt once, and the changes are
/// the diff of the rows before and after. Either way the rows equal a full rebuild.
///
/// Cost per live changeset: O(k log n) for k touched rows (the rows are a `PersistentList`, so the copy a view
/// holds is shared, not copied). Value type; its view model keeps it on the main actor.
struct MatchListRows {
    /// The rows, newest first.
    private(set) var rows = PersistentList<MatchRow>()
    /// Full rebuilds so far (tests check that live changesets patch instead).
    private(set) var rebuilds = 0
    /// Every listed match's sort key (with its id) and players, as its row was made.
    private var listed: [MatchID: Listed] = [:]
    /// The listed matches naming each player.
    private var matchesOf: [PlayerID: Set<MatchID>] = [:]
    /// Matches whose date arrived since the last update (their rows are re-made by the next one).
    private var redated: Set<MatchID> = []
    /// The replica revision and epoch the rows show; nil revision: rebuild at the next update.
    private var revision: Revision?
    private var epoch: LeagueEpoch?
    /// Changesets the replica applied that the rows may not show yet, oldest first (at most `maxQueued`).
    private var queued: [Changeset] = []

    /// The most changesets kept between two updates; beyond it the queue is dropped and the next update rebuilds.
    static let maxQueued = 1_024

    private struct Listed {
        var revision: Revision
        var home: [PlayerID]
        var away: [PlayerID]

        var players: [PlayerID] { home + away }
    }

    /// Notes an update the replica took; call it before `update(to:dates:)` sees that replica.
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
    ///
    /// - Returns: The changes from the rows before to the rows after: deletions (old indexes), insertions (new
    ///   indexes) and modifications (old indexes), never moves (a match keeps its place); after a rebuild, their
    ///   diff.
    @discardableResult
    mutating func update(to replica: ReplicaState, dates: MatchDates = MatchDates()) -> RowChanges {
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
        return patch(replica, dates: dates, matches: matches, players: players)
    }

    /// Takes the date `dates` now knows for match `id` into its row at the next `update(to:dates:)` (a history
    /// answer arrived).
    mutating func redate(_ id: MatchID) {
        if listed[id] != nil { redated.insert(id) }
    }

    /// The row of `id` among `rows`, by binary search down the tree (O(log n)); nil when it is not listed.
    func index(of id: MatchID) -> Int? {
        guard let revision = listed[id]?.revision else { return nil }
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

    /// Re-makes the rows of the `matches` the changesets touched (in place when a match keeps its place, else by
    /// removing and re-inserting it), the rows naming `players` and the re-dated ones; the changes come from each
    /// touched match's index before and after.
    private mutating func patch(
        _ replica: ReplicaState,
        dates: MatchDates,
        matches: Set<MatchID>,
        players: Set<PlayerID>
    ) -> RowChanges {
        let old = rows
        var remade = redated
        redated.removeAll()
        for player in players { remade.formUnion(matchesOf[player] ?? []) }
        remade.subtract(matches)
        var before: [MatchID: Int] = [:]
        for id in matches.union(remade) {
            if let index = index(of: id) { before[id] = index }
        }
        // In place first, while no row has moved and the old indexes still hold.
        var moving: [MatchID] = []
        for id in matches {
            guard let index = before[id], let match = replica.matches[id],
                match.created.revision == listed[id]?.revision
            else {
                moving.append(id)
                continue
            }
            rows[index] = Self.row(match, in: replica, created: dates[id])
            link(match)
        }
        for id in remade {
            guard let index = before[id], let match = replica.matches[id] else { continue }
            rows[index] = Self.row(match, in: replica, created: rows[index].created ?? dates[id])
        }
        for id in moving { remove(id) }
        for id in moving {
            if let match = replica.matches[id] { insert(match, replica: replica, date: dates[id]) }
        }
        revision = replica.revision

        var changes = RowChanges()
        if moving.isEmpty {
            // Nothing was removed or inserted: every row kept its index.
            for index in before.values where old[index] != rows[index] { changes.modifications.append(index) }
        } else {
            let moved = Set(moving)
            for (id, was) in before where !moved.contains(id) {
                guard let now = index(of: id) else { continue }
                if old[was] != rows[now] { changes.modifications.append(was) }
            }
            for id in moving {
                switch (before[id], index(of: id)) {
                case (nil, nil): continue
                case (let was?, nil): changes.deletions.append(was)
                case (nil, let now?): changes.insertions.append(now)
                case (_?, _?):
                    // Deleted and created again with the same id in one batch, at another place: the diff says how
                    // it moved.
                    return RowChanges(old: Array(old), new: Array(rows))
                }
            }
        }
        changes.deletions.sort()
        changes.insertions.sort()
        changes.modifications.sort()
        return changes
    }

    private mutating func rebuild(_ replica: ReplicaState, dates: MatchDates) -> RowChanges {
        let old = rows
        let matches = replica.matchesNewestFirst()
        rows = PersistentList(matches.map { Self.row($0, in: replica, created: dates[$0.id]) })
        listed = Dictionary(
            uniqueKeysWithValues: matches.map {
                ($0.id, Listed(revision: $0.created.revision, home: $0.homePlayers, away: $0.awayPlayers))
            }
        )
        // Each player's set sized once, so 10,000 matches fill them without rehashing.
        var counts: [PlayerID: Int] = [:]
        for match in matches {
            for player in match.homePlayers { counts[player, default: 0] += 1 }
            for player in match.awayPlayers { counts[player, default: 0] += 1 }
        }
        matchesOf = counts.mapValues { Set(minimumCapacity: $0) }
        for match in matches {
            for player in match.homePlayers { matchesOf[player]?.insert(match.id) }
            for player in match.awayPlayers { matchesOf[player]?.insert(match.id) }
        }
        redated.removeAll()
        revision = replica.revision
        epoch = replica.epoch
        rebuilds += 1
        return RowChanges(old: Array(old), new: Array(rows))
    }

    private mutating func remove(_ id: MatchID) {
        guard let index = index(of: id), let entry = listed.removeValue(forKey: id) else { return }
        rows.remove(at: index)
        for player in entry.players {
            matchesOf[player]?.remove(id)
            if matchesOf[player]?.isEmpty == true { matchesOf[player] = nil }
        }
    }

    private mutating func insert(_ match: Match, replica: ReplicaState, date: Timestamp?) {
        let index = insertionIndex(revision: match.created.revision, id: match.id)
        rows.insert(Self.row(match, in: replica, created: date), at: index)
        listed[match.id] = Listed(revision: match.created.revision, home: [], away: [])
        link(match)
    }

    /// Files listed `match` under its players (again, when they changed).
    private mutating func link(_ match: Match) {
        guard let was = listed[match.id], was.home != match.homePlayers || was.away != match.awayPlayers else { return }
        let players = match.allPlayers
        for player in was.players where !players.contains(player) {
            matchesOf[player]?.remove(match.id)
            if matchesOf[player]?.isEmpty == true { matchesOf[player] = nil }
        }
        for player in players { matchesOf[player, default: []].insert(match.id) }
        listed[match.id]?.home = match.homePlayers
        listed[match.id]?.away = match.awayPlayers
    }

    /// The first row that does not come before (revision, id) in newest-first order.
    private func insertionIndex(revision: Revision, id: MatchID) -> Int {
        rows.partitioningIndex { row in
            let otherRevision = listed[row.id]?.revision ?? 0
            return !(otherRevision > revision || (otherRevision == revision && row.id < id))
        }
    }
}
