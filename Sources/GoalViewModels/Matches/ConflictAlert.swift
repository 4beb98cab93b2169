public import GoalClient
public import GoalModel

/// What to tell the user when a save conflicts: which fields someone else changed and what they hold now.
///
/// Value type, `Sendable`. Built from the server's `conflict` rejection (its `fields` and `current` entity);
/// player ids are shown as names from the replica.
public struct ConflictAlert: Hashable, Sendable {
    /// "Someone else changed this match".
    public let title: String
    /// The changed fields, as people read them ("home goals", "away players").
    public let fields: [String]
    /// Each changed field with its current value ("home goals: 3", "away players: Cy, Di").
    public let currentValues: [String]

    public init(title: String, fields: [String], currentValues: [String]) {
        self.title = title
        self.fields = fields
        self.currentValues = currentValues
    }

    /// The alert as one message: "Someone else changed home goals while you were editing. Now: home goals: 3."
    public var message: String {
        let changed = ConflictAlert.list(fields)
        let now = currentValues.isEmpty ? "" : " Now: " + currentValues.joined(separator: "; ") + "."
        return "Someone else changed \(changed) while you were editing.\(now)"
    }

    /// The alert for a conflict rejection; nil for any other rejection.
    /// - Parameters:
    ///   - rejection: The server's rejection.
    ///   - replica: Where player names come from.
    public init?(_ rejection: MutationRejection, replica: ReplicaState) {
        guard rejection.code == .conflict else { return nil }
        let labels = rejection.fields.map(ConflictAlert.label)
        var values: [String] = []
        switch rejection.current {
        case .match(let match):
            title = "Someone else changed this match"
            for field in rejection.fields {
                guard let value = ConflictAlert.value(of: field, in: match, replica: replica) else { continue }
                values.append("\(ConflictAlert.label(field)): \(value)")
            }
        case .player(let player):
            title = "Someone else changed this player"
            if rejection.fields.contains(PlayerField.name.rawValue) { values.append("name: \(player.name)") }
        case nil:
            title = "Someone else changed this entry"
        }
        fields = labels.isEmpty ? ["it"] : labels
        currentValues = values
    }

    /// "home_goals" → "home goals".
    static func label(_ field: String) -> String {
        String(field.map { $0 == "_" ? " " : $0 })
    }

    private static func value(of field: String, in match: Match, replica: ReplicaState) -> String? {
        switch MatchField(rawValue: field) {
        case .homeGoals: "\(match.homeGoals)"
        case .awayGoals: "\(match.awayGoals)"
        case .homePlayers: replica.names(match.homePlayers)
        case .awayPlayers: replica.names(match.awayPlayers)
        case nil: nil
        }
    }

    private static func list(_ items: [String]) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + items.last!
    }
}
