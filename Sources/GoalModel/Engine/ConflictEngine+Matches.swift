import HashTreeCollections

/// Match actions: create, update (absolute sets), adjust goals (increments), delete.
extension ConflictEngine {
    /// `create_match`: an existing id → `id_taken`; goals outside 0…999 → `goals_out_of_range`; broken sides
    /// → the side rule's code (`empty_side`, `player_listed_twice`, `player_on_both_sides`, `unknown_player`). Commits the match and the ratings of its players.
    static func createMatch(
        id: MatchID,
        homePlayers: [PlayerID],
        awayPlayers: [PlayerID],
        homeGoals: Int,
        awayGoals: Int,
        _ context: Context,
        _ state: inout LeagueState
    ) -> ActionResult {
        guard state.matches[id] == nil else {
            return .rejected(Rejections.idTaken("match", id: id.description))
        }
        if let rejection = MatchRules.checkGoals(homeGoals, side: .home)
            ?? MatchRules.checkGoals(awayGoals, side: .away)
        {
            return .rejected(rejection)
        }
        if let rejection = MatchRules.checkSides(
            homePlayers: homePlayers,
            awayPlayers: awayPlayers,
            playerExists: { state.players[$0] != nil }
        ) {
            return .rejected(rejection)
        }
        let match = Match(
            id: id,
            homePlayers: homePlayers,
            awayPlayers: awayPlayers,
            homeGoals: homeGoals,
            awayGoals: awayGoals,
            created: context.stamp
        )
        return .changed(commitMatch(old: nil, new: match, &state))
    }

    /// `update_match`: a missing match → `not_found`; written goals outside 0…999 → `goals_out_of_range`;
    /// any written field changed after the base by another instance to a value other than the written one →
    /// `conflict` (all such fields, the current match); every write equal to the current value → `.noop`;
    /// merged sides breaking a rule → that rule's code. Stamps only the fields whose value changes.
    static func updateMatch(
        id: MatchID,
        _ update: MatchUpdate,
        _ context: Context,
        _ state: inout LeagueState
    ) -> ActionResult {
        guard let old = state.matches[id] else { return .rejected(Rejections.matchNotFound(id)) }
        if let goals = update.homeGoals, let rejection = MatchRules.checkGoals(goals, side: .home) {
            return .rejected(rejection)
        }
        if let goals = update.awayGoals, let rejection = MatchRules.checkGoals(goals, side: .away) {
            return .rejected(rejection)
        }
        var conflicts: [String] = []
        var changed: [MatchField] = []
        for field in update.writtenFields where !update.writes(field, equalTo: old) {
            changed.append(field)
            if context.changedByOther(old.stamps[field]) { conflicts.append(field.rawValue) }
        }
        guard conflicts.isEmpty else {
            return .rejected(Rejections.conflict(conflicts, entity: "match \(id.shortID)", current: .match(old)))
        }
        guard !changed.isEmpty else { return .noop }

        var new = old
        new.homePlayers = update.homePlayers ?? old.homePlayers
        new.awayPlayers = update.awayPlayers ?? old.awayPlayers
        new.homeGoals = update.homeGoals ?? old.homeGoals
        new.awayGoals = update.awayGoals ?? old.awayGoals
        for field in changed { new.stamps[field] = context.stamp }
        if changed.contains(.homePlayers) || changed.contains(.awayPlayers) {
            if let rejection = MatchRules.checkSides(
                homePlayers: new.homePlayers,
                awayPlayers: new.awayPlayers,
                playerExists: { state.players[$0] != nil }
            ) {
                return .rejected(rejection)
            }
        }
        return .changed(commitMatch(old: old, new: new, &state))
    }

    /// `adjust_goals`: a missing match → `not_found`; that side's players changed after the base by another
    /// instance → `conflict` (the players field, the current match); a zero delta → `.noop`; a result outside
    /// 0…999 → `goals_out_of_range` (never clamped). Concurrent increments all count: the goals field's own
    /// stamp is not checked.
    static func adjustGoals(
        id: MatchID,
        side: Side,
        delta: Int,
        _ context: Context,
        _ state: inout LeagueState
    ) -> ActionResult {
        guard let old = state.matches[id] else { return .rejected(Rejections.matchNotFound(id)) }
        let playersField = MatchField.players(side)
        if context.changedByOther(old.stamps[playersField]) {
            return .rejected(
                Rejections.conflict([playersField.rawValue], entity: "match \(id.shortID)", current: .match(old))
            )
        }
        guard delta != 0 else { return .noop }
        let (goals, overflow) = old.goals(side).addingReportingOverflow(delta)
        if overflow {
            return .rejected(MatchRules.checkGoals(delta > 0 ? Int.max : Int.min, side: side)!)
        }
        if let rejection = MatchRules.checkGoals(goals, side: side) { return .rejected(rejection) }
        var new = old
        if side == .home { new.homeGoals = goals } else { new.awayGoals = goals }
        new.stamps[MatchField.goals(side)] = context.stamp
        return .changed(commitMatch(old: old, new: new, &state))
    }

    /// `delete_match`: a missing match → `not_found`; any field changed after the base by another instance
    /// (a stale base) → `conflict` naming those fields. Commits the removal and the ratings of its players.
    static func deleteMatch(id: MatchID, _ context: Context, _ state: inout LeagueState) -> ActionResult {
        guard let old = state.matches[id] else { return .rejected(Rejections.matchNotFound(id)) }
        let createdByOther = context.changedByOther(old.created)
        let stale = MatchField.allCases.filter { createdByOther || context.changedByOther(old.stamps[$0]) }
        guard stale.isEmpty else {
            return .rejected(
                Rejections.staleDelete(stale.map(\.rawValue), entity: "match \(id.shortID)", current: .match(old))
            )
        }
        return .changed(commitMatch(old: old, new: nil, &state))
    }

    /// Writes the match and returns the commit's changes: the match change, then old ∪ new players' ratings.
    private static func commitMatch(old: Match?, new: Match?, _ state: inout LeagueState) -> [Change] {
        let ratings = state.writeMatch(old: old, new: new)
        var changes: [Change] = []
        changes.reserveCapacity(ratings.count + 1)
        if let new {
            changes.append(.matchUpserted(new))
        } else if let old {
            changes.append(.matchDeleted(old.id))
        }
        for rating in ratings { changes.append(.ratingUpdated(rating)) }
        return changes
    }
}

extension MatchUpdate {
    /// True when this update writes `field` with the value `match` already has (or does not write it).
    func writes(_ field: MatchField, equalTo match: Match) -> Bool {
        switch field {
        case .homePlayers: homePlayers.map { $0 == match.homePlayers } ?? true
        case .awayPlayers: awayPlayers.map { $0 == match.awayPlayers } ?? true
        case .homeGoals: homeGoals.map { $0 == match.homeGoals } ?? true
        case .awayGoals: awayGoals.map { $0 == match.awayGoals } ?? true
        }
    }
}
