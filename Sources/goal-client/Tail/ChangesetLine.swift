import GoalModel

/// One changeset as `tail` prints it for people:
/// `r42 alice  3f2a9c1e  Alice, Bob 3 : 2 Carol  (home +1)`.
///
/// Names come from `names` (the league as tail knows it; unknown players show their short id); everything from
/// the server is escaped. Pure function.
enum ChangesetLine {
    /// The line for `changeset`, given the player names and matches known before it.
    static func text(
        _ changeset: Changeset,
        names: [PlayerID: String],
        matches: [MatchID: Match]
    ) -> String {
        let head = "r\(changeset.revision) \(TerminalText.escape(changeset.author))"
        func name(_ id: PlayerID) -> String { TerminalText.escape(names[id] ?? id.shortID) }
        func newName(_ id: PlayerID) -> String {
            for case .playerUpserted(let player) in changeset.changes where player.id == id {
                return TerminalText.escape(player.name)
            }
            return name(id)
        }
        func score(_ match: Match) -> String {
            let home = match.homePlayers.map(name).joined(separator: ", ")
            let away = match.awayPlayers.map(name).joined(separator: ", ")
            return "\(home) \(match.homeGoals) : \(match.awayGoals) \(away)"
        }
        func upserted(_ id: MatchID) -> Match? {
            for case .matchUpserted(let match) in changeset.changes where match.id == id { return match }
            return nil
        }
        switch changeset.action {
        case .createPlayer(let id, _):
            return "\(head)  \(id.shortID)  \(newName(id))  (new player)"
        case .renamePlayer(let id, _):
            return "\(head)  \(id.shortID)  \(newName(id))  (renamed from \(name(id)))"
        case .deletePlayer(let id):
            return "\(head)  \(id.shortID)  \(name(id))  (player deleted)"
        case .createMatch(let id, _, _, _, _):
            return "\(head)  \(id.shortID)  \(upserted(id).map(score) ?? "?")  (new match)"
        case .updateMatch(let id, let update):
            let fields = update.writtenFields.map(\.rawValue).joined(separator: ", ")
            return "\(head)  \(id.shortID)  \(upserted(id).map(score) ?? "?")  (edited \(fields))"
        case .adjustGoals(let id, let side, let delta):
            let signed = delta >= 0 ? "+\(delta)" : "\(delta)"
            return "\(head)  \(id.shortID)  \(upserted(id).map(score) ?? "?")  (\(side.rawValue) \(signed))"
        case .deleteMatch(let id):
            return "\(head)  \(id.shortID)  \(matches[id].map(score) ?? "match")  (match deleted)"
        case nil:
            return "\(head)  \(changeset.changes.count) changes"
        }
    }
}
