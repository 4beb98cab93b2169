/// What a replica lends `ChangesetDelta.expand(in:)`: the league at the revision before the delta. Read only, and
/// only during that one synchronous call, on the caller's thread; nothing keeps it afterwards.
public protocol DeltaBase {
    func player(_ id: PlayerID) -> Player?
    func match(_ id: MatchID) -> Match?
    func rating(_ id: PlayerID) -> Rating?
}

/// Why a lean changeset could not be expanded: the replica is not at the revision before it (or the delta is not
/// one the server makes). The client treats it like a digest mismatch: it resumes, and gets full changesets.
/// Value type, `Sendable`.
public enum DeltaExpansionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A patch for a match the replica does not have, written partly (a creation writes every field).
    case unknownMatch(MatchID)

    public var description: String {
        switch self {
        case .unknownMatch(let id): "a lean changeset changes match \(id), which this replica does not have"
        }
    }
}

extension ChangesetDelta {
    /// The full changeset: each lean change becomes the whole entity after it, stamped with this commit's stamp
    /// where it was written, followed by what the engine adds (a created player's zero rating; a match's old ∪ new
    /// players' ratings, old players first, home then away, then new ones not listed yet).
    /// - Parameter base: the league at `revision − 1`.
    public func expand(in base: some DeltaBase) throws(DeltaExpansionError) -> Changeset {
        var working = WorkingLeague(base: base)
        var changes: [Change] = []
        changes.reserveCapacity(self.changes.count + 4)
        for (index, change) in self.changes.enumerated() {
            // The last change needs no overlay: nothing after it reads what it wrote (usually the only change).
            working.recording = index < self.changes.count - 1
            switch change {
            case .player(let id, let name, let nameKey):
                if var player = working.player(id) {
                    player.name = name
                    player.nameKey = nameKey
                    player.nameStamp = stamp
                    working.set(player: player, id: id)
                    changes.append(.playerUpserted(player))
                } else {
                    let player = Player(id: id, name: name, nameKey: nameKey, created: stamp, nameStamp: stamp)
                    working.set(player: player, id: id)
                    working.set(rating: Rating(playerID: id), id: id)
                    changes.append(.playerUpserted(player))
                    changes.append(.ratingUpdated(Rating(playerID: id)))
                }
            case .playerDeleted(let id):
                working.set(player: nil, id: id)
                working.set(rating: nil, id: id)
                changes.append(.playerDeleted(id))
            case .match(let id, let update):
                let old = working.match(id)
                let new = try patched(old, id: id, update)
                working.set(match: new, id: id)
                changes.append(.matchUpserted(new))
                working.moveRatings(old: old, new: new, into: &changes)
            case .matchDeleted(let id):
                let old = working.match(id)
                working.set(match: nil, id: id)
                changes.append(.matchDeleted(id))
                working.moveRatings(old: old, new: nil, into: &changes)
            }
        }
        return Changeset(
            revision: revision,
            mutationID: mutationID,
            author: author,
            time: time,
            action: action,
            changes: changes,
            digest: digest
        )
    }

    /// `old` with the written fields set and stamped; a new match when there is no `old` (every field written).
    private func patched(_ old: Match?, id: MatchID, _ update: MatchUpdate) throws(DeltaExpansionError) -> Match {
        guard var match = old else {
            guard let homePlayers = update.homePlayers, let awayPlayers = update.awayPlayers,
                let homeGoals = update.homeGoals, let awayGoals = update.awayGoals
            else { throw .unknownMatch(id) }
            return Match(
                id: id,
                homePlayers: homePlayers,
                awayPlayers: awayPlayers,
                homeGoals: homeGoals,
                awayGoals: awayGoals,
                created: stamp
            )
        }
        for field in update.writtenFields { match.stamps[field] = stamp }
        match.homePlayers = update.homePlayers ?? match.homePlayers
        match.awayPlayers = update.awayPlayers ?? match.awayPlayers
        match.homeGoals = update.homeGoals ?? match.homeGoals
        match.awayGoals = update.awayGoals ?? match.awayGoals
        return match
    }
}

/// The base league with the changes made so far in one changeset laid over it (`.some(nil)`: removed).
private struct WorkingLeague<Base: DeltaBase> {
    let base: Base
    var players: [PlayerID: Player?] = [:]
    var matches: [MatchID: Match?] = [:]
    var ratings: [PlayerID: Rating?] = [:]
    /// False while expanding the last change: its writes need not be kept.
    var recording = true

    init(base: Base) { self.base = base }

    mutating func set(player: Player?, id: PlayerID) { if recording { players[id] = .some(player) } }
    mutating func set(match: Match?, id: MatchID) { if recording { matches[id] = .some(match) } }
    mutating func set(rating: Rating?, id: PlayerID) { if recording { ratings[id] = .some(rating) } }

    func player(_ id: PlayerID) -> Player? { players.isEmpty ? base.player(id) : players[id] ?? base.player(id) }
    func match(_ id: MatchID) -> Match? { matches.isEmpty ? base.match(id) : matches[id] ?? base.match(id) }
    func rating(_ id: PlayerID) -> Rating? { ratings.isEmpty ? base.rating(id) : ratings[id] ?? base.rating(id) }

    /// Moves a match's outcome from the old players' ratings to the new players' (as `LeagueState.writeMatch`
    /// does) and appends the ratings of old ∪ new players after it to `changes`, in the engine's order; players
    /// without a rating are left out, as the engine leaves them out. Runs once per live changeset on every client:
    /// no set and no temporary arrays for the usual few players.
    mutating func moveRatings(old: Match?, new: Match?, into changes: inout [Change]) {
        let oldPlayers = old?.allPlayers ?? []
        var touched = oldPlayers
        if let new {
            let seen: Set<PlayerID>? = oldPlayers.count > 16 ? Set(oldPlayers) : nil
            for id in new.allPlayers where !(seen?.contains(id) ?? oldPlayers.contains(id)) { touched.append(id) }
        }
        for id in touched {
            guard var rating = rating(id) else { continue }
            if let old { Self.record(old, for: id, sign: -1, into: &rating) }
            if let new { Self.record(new, for: id, sign: 1, into: &rating) }
            set(rating: rating, id: id)
            changes.append(.ratingUpdated(rating))
        }
    }

    /// Adds (1) or takes away (−1) `match`'s outcome for `id`, when `id` plays in it.
    private static func record(_ match: Match, for id: PlayerID, sign: Int, into rating: inout Rating) {
        if match.homePlayers.contains(id) {
            rating.record(match.outcome(for: .home), sign: sign)
        } else if match.awayPlayers.contains(id) {
            rating.record(match.outcome(for: .away), sign: sign)
        }
    }
}

/// The engine's state expands lean changesets too (a node or a test replaying a log against what it holds).
extension LeagueState: DeltaBase {
    public func rating(_ id: PlayerID) -> Rating? { rating(of: id) }
}
