import GoalModel

/// A deliberately naive oracle for the conflict engine, written from docs/RULES.md alone: plain dictionaries,
/// history kept forever, every rating recomputed by scanning every match, every reference found by a scan.
/// It shares no code with the engine beyond the public value types (and `PlayerName` for name normalization).
struct ReferenceModel {
    struct Stamp: Equatable {
        var revision: Revision
        var writer: ClientInstanceID
    }

    struct PlayerRow {
        var id: PlayerID
        var name: String
        var key: String
        var created: Stamp
        var nameStamp: Stamp
    }

    struct MatchRow {
        var id: MatchID
        var home: [PlayerID]
        var away: [PlayerID]
        var homeGoals: Int
        var awayGoals: Int
        var created: Stamp
        var stamps: [MatchField: Stamp]
    }

    /// What the oracle predicts for one mutation. Rejections carry no message (the engine's wording is free).
    enum Result: Equatable {
        case commit(Changeset)
        case noop(Revision)
        case rejected(MutationRejection.Code, fields: [String], current: EntityState?)
        case duplicate(MutationOutcome)
    }

    var revision: Revision = 0
    var players: [PlayerID: PlayerRow] = [:]
    var matches: [MatchID: MatchRow] = [:]
    /// Existing ids in creation order (so a seeded test picks them deterministically).
    var playerOrder: [PlayerID] = []
    var matchOrder: [MatchID] = []
    /// Every processed mutation of every instance, forever: seq → (mutation, outcome without message).
    var history: [ClientInstanceID: [UInt64: (mutation: Mutation, outcome: MutationOutcome)]] = [:]

    static let kept = 32

    // MARK: Public views as the engine's value types

    func player(_ id: PlayerID) -> Player? {
        players[id].map {
            Player(
                id: $0.id,
                name: $0.name,
                nameKey: $0.key,
                created: stamp($0.created),
                nameStamp: stamp($0.nameStamp)
            )
        }
    }

    func match(_ id: MatchID) -> Match? {
        matches[id].map {
            Match(
                id: $0.id,
                homePlayers: $0.home,
                awayPlayers: $0.away,
                homeGoals: $0.homeGoals,
                awayGoals: $0.awayGoals,
                created: stamp($0.created),
                stamps: MatchStamps(
                    homePlayers: stamp($0.stamps[.homePlayers]!),
                    awayPlayers: stamp($0.stamps[.awayPlayers]!),
                    homeGoals: stamp($0.stamps[.homeGoals]!),
                    awayGoals: stamp($0.stamps[.awayGoals]!)
                )
            )
        }
    }

    /// A player's rating by scanning every match.
    func rating(_ id: PlayerID) -> Rating {
        var points = 0
        var played = 0
        var won = 0
        var drawn = 0
        var lost = 0
        for match in matches.values {
            let mine: Int
            let theirs: Int
            if match.home.contains(id) {
                (mine, theirs) = (match.homeGoals, match.awayGoals)
            } else if match.away.contains(id) {
                (mine, theirs) = (match.awayGoals, match.homeGoals)
            } else {
                continue
            }
            played += 1
            if mine > theirs {
                won += 1
                points += 3
            } else if mine == theirs {
                drawn += 1
                points += 1
            } else {
                lost += 1
            }
        }
        return Rating(playerID: id, points: points, played: played, won: won, drawn: drawn, lost: lost)
    }

    /// Rankings by sorting on the Double value, then name key, then id.
    func rankings() -> [PlayerID] {
        players.values.map { ($0, rating($0.id).value) }.sorted { lhs, rhs in
            if lhs.1 != rhs.1 { return lhs.1 > rhs.1 }
            if lhs.0.key != rhs.0.key { return lhs.0.key < rhs.0.key }
            return lhs.0.id < rhs.0.id
        }.map(\.0.id)
    }

    private func stamp(_ s: Stamp) -> FieldStamp { FieldStamp(revision: s.revision, writer: s.writer) }

    // MARK: Applying

    mutating func apply(_ mutation: Mutation, author: String, time: (Revision) -> Timestamp) -> Result {
        let instance = mutation.id.instance
        let seq = mutation.id.seq
        let processed = history[instance] ?? [:]
        // Kept = the 32 highest processed seqs: a seq is below them iff at least 32 processed seqs are higher.
        let belowKept = processed.keys.lazy.filter { $0 > seq }.count >= ReferenceModel.kept
        if let earlier = processed[seq] {
            guard !belowKept else { return .rejected(.idExpired, fields: [], current: nil) }
            guard earlier.mutation.base == mutation.base, earlier.mutation.action == mutation.action else {
                return .rejected(.idReused, fields: [], current: nil)
            }
            return .duplicate(earlier.outcome)
        }
        if belowKept {
            return .rejected(.idExpired, fields: [], current: nil)
        }

        let result: Result
        if mutation.base > revision {
            result = .rejected(.baseAhead, fields: [], current: nil)
        } else {
            result = decide(mutation, author: author, time: time)
        }
        let outcome: MutationOutcome
        switch result {
        case .commit(let changeset): outcome = .committed(changeset.revision)
        case .noop(let revision): outcome = .noop(revision)
        case .rejected(let code, let fields, let current):
            outcome = .rejected(
                MutationRejection(code: code, message: "", fields: code == .invalid ? [] : fields, current: current)
            )
        case .duplicate(let original): outcome = original
        }
        history[instance, default: [:]][seq] = (mutation, outcome)
        return result
    }

    private func changedByOther(_ stamp: Stamp, _ mutation: Mutation) -> Bool {
        stamp.revision > mutation.base && stamp.writer != mutation.id.instance
    }

    private func reject(
        _ code: MutationRejection.Code,
        _ fields: [String] = [],
        _ current: EntityState? = nil
    ) -> Result {
        .rejected(code, fields: fields, current: current)
    }

    private func outOfRange(_ goals: Int) -> Bool { goals < 0 || goals > 999 }

    /// Naive side rules: true when broken. The oracle reports any side rule as `invalid` (which of the four
    /// rules is named first is the engine's order); the test maps the engine's side codes to `invalid`.
    private func sidesInvalid(_ home: [PlayerID], _ away: [PlayerID]) -> Bool {
        if home.isEmpty || away.isEmpty { return true }
        if Set(home).count != home.count || Set(away).count != away.count { return true }
        if !Set(home).isDisjoint(with: away) { return true }
        return (home + away).contains { players[$0] == nil }
    }

    private mutating func decide(_ mutation: Mutation, author: String, time: (Revision) -> Timestamp) -> Result {
        let next = Stamp(revision: revision + 1, writer: mutation.id.instance)
        var changes: [Change] = []
        switch mutation.action {
        case .createPlayer(let id, let raw):
            if players[id] != nil { return reject(.idTaken, ["id"]) }
            let name: PlayerName
            do { name = try PlayerName(validating: raw) } catch { return reject(error.rejectionCode, ["name"]) }
            if players.values.contains(where: { $0.key == name.key }) { return reject(.nameTaken, ["name"]) }
            players[id] = PlayerRow(id: id, name: name.value, key: name.key, created: next, nameStamp: next)
            playerOrder.append(id)
            changes = [.playerUpserted(player(id)!), .ratingUpdated(rating(id))]

        case .renamePlayer(let id, let raw):
            guard let row = players[id] else { return reject(.notFound) }
            let name: PlayerName
            do { name = try PlayerName(validating: raw) } catch { return reject(error.rejectionCode, ["name"]) }
            if changedByOther(row.nameStamp, mutation), row.name != name.value {
                return reject(.conflict, ["name"], .player(player(id)!))
            }
            if row.name == name.value { return .noop(revision) }
            if players.values.contains(where: { $0.key == name.key && $0.id != id }) {
                return reject(.nameTaken, ["name"])
            }
            players[id]!.name = name.value
            players[id]!.key = name.key
            players[id]!.nameStamp = next
            changes = [.playerUpserted(player(id)!)]

        case .deletePlayer(let id):
            guard let row = players[id] else { return reject(.notFound) }
            if changedByOther(row.created, mutation) || changedByOther(row.nameStamp, mutation) {
                return reject(.conflict, ["name"], .player(player(id)!))
            }
            if matches.values.contains(where: { $0.home.contains(id) || $0.away.contains(id) }) {
                return reject(.playerInUse, [], .player(player(id)!))
            }
            players[id] = nil
            playerOrder.removeAll { $0 == id }
            changes = [.playerDeleted(id)]

        case .createMatch(let id, let home, let away, let homeGoals, let awayGoals):
            if matches[id] != nil { return reject(.idTaken, ["id"]) }
            if outOfRange(homeGoals) { return reject(.goalsOutOfRange, ["home_goals"]) }
            if outOfRange(awayGoals) { return reject(.goalsOutOfRange, ["away_goals"]) }
            if sidesInvalid(home, away) { return reject(.invalid) }
            let stamps = Dictionary(uniqueKeysWithValues: MatchField.allCases.map { ($0, next) })
            matches[id] = MatchRow(
                id: id,
                home: home,
                away: away,
                homeGoals: homeGoals,
                awayGoals: awayGoals,
                created: next,
                stamps: stamps
            )
            matchOrder.append(id)
            changes = matchChanges(old: nil, new: matches[id]!)

        case .updateMatch(let id, let update):
            guard let old = matches[id] else { return reject(.notFound) }
            if let goals = update.homeGoals, outOfRange(goals) { return reject(.goalsOutOfRange, ["home_goals"]) }
            if let goals = update.awayGoals, outOfRange(goals) { return reject(.goalsOutOfRange, ["away_goals"]) }
            var differing: [MatchField] = []
            if let v = update.homePlayers, v != old.home { differing.append(.homePlayers) }
            if let v = update.awayPlayers, v != old.away { differing.append(.awayPlayers) }
            if let v = update.homeGoals, v != old.homeGoals { differing.append(.homeGoals) }
            if let v = update.awayGoals, v != old.awayGoals { differing.append(.awayGoals) }
            let conflicts = differing.filter { changedByOther(old.stamps[$0]!, mutation) }
            if !conflicts.isEmpty { return reject(.conflict, conflicts.map(\.rawValue), .match(match(id)!)) }
            if differing.isEmpty { return .noop(revision) }
            var new = old
            new.home = update.homePlayers ?? old.home
            new.away = update.awayPlayers ?? old.away
            new.homeGoals = update.homeGoals ?? old.homeGoals
            new.awayGoals = update.awayGoals ?? old.awayGoals
            for field in differing { new.stamps[field] = next }
            if sidesInvalid(new.home, new.away) { return reject(.invalid) }
            matches[id] = new
            changes = matchChanges(old: old, new: new)

        case .adjustGoals(let id, let side, let delta):
            guard let old = matches[id] else { return reject(.notFound) }
            let playersField: MatchField = side == .home ? .homePlayers : .awayPlayers
            if changedByOther(old.stamps[playersField]!, mutation) {
                return reject(.conflict, [playersField.rawValue], .match(match(id)!))
            }
            if delta == 0 { return .noop(revision) }
            var new = old
            if side == .home { new.homeGoals += delta } else { new.awayGoals += delta }
            if outOfRange(side == .home ? new.homeGoals : new.awayGoals) {
                return reject(.goalsOutOfRange, [side == .home ? "home_goals" : "away_goals"])
            }
            new.stamps[side == .home ? .homeGoals : .awayGoals] = next
            matches[id] = new
            changes = matchChanges(old: old, new: new)

        case .deleteMatch(let id):
            guard let old = matches[id] else { return reject(.notFound) }
            let stale = MatchField.allCases.filter {
                changedByOther(old.created, mutation) || changedByOther(old.stamps[$0]!, mutation)
            }
            if !stale.isEmpty { return reject(.conflict, stale.map(\.rawValue), .match(match(id)!)) }
            matches[id] = nil
            matchOrder.removeAll { $0 == id }
            changes = matchChanges(old: old, new: nil)
        }
        revision += 1
        return .commit(
            Changeset(
                revision: revision,
                mutationID: mutation.id,
                author: author,
                time: time(revision),
                action: mutation.action,
                changes: changes,
                digest: .genesis
            )
        )
    }

    /// The match change, then old players (home, away), then new players not yet listed — each rating recomputed.
    private func matchChanges(old: MatchRow?, new: MatchRow?) -> [Change] {
        var changes: [Change] = []
        if let new {
            changes.append(.matchUpserted(match(new.id)!))
        } else if let old {
            changes.append(.matchDeleted(old.id))
        }
        var listed: [PlayerID] = []
        for id in (old.map { $0.home + $0.away } ?? []) + (new.map { $0.home + $0.away } ?? [])
        where !listed.contains(id) {
            listed.append(id)
        }
        return changes + listed.map { .ratingUpdated(rating($0)) }
    }
}
