/// A field of an entity as history names it: the player's name or one of the match's four fields. Value type,
/// `Sendable`.
public enum HistoryField: String, Hashable, Sendable, CaseIterable {
    case name
    case homePlayers = "home_players"
    case awayPlayers = "away_players"
    case homeGoals = "home_goals"
    case awayGoals = "away_goals"
}

/// A field's value in a history entry. Value type, `Sendable`.
public enum HistoryValue: Hashable, Sendable {
    case name(String)
    case goals(Int)
    case players([PlayerID])
}

/// One field's change: its value before (nil when the entity did not exist yet, or the revision that wrote it
/// before was pruned from the log) and after (nil when the entity was deleted). Value type, `Sendable`.
public struct FieldChange: Hashable, Sendable {
    public var field: HistoryField
    public var before: HistoryValue?
    public var after: HistoryValue?

    public init(field: HistoryField, before: HistoryValue?, after: HistoryValue?) {
        self.field = field
        self.before = before
        self.after = after
    }
}

/// What a changeset did to the entity. Value type, `Sendable`.
public enum HistoryChangeKind: String, Hashable, Sendable, CaseIterable {
    case created
    case updated
    case deleted
}

/// One revision in an entity's history: who changed it, when, from which client instance, with which action, and
/// each field before → after.
///
/// Value type, `Sendable`.
public struct HistoryEntry: Hashable, Sendable {
    public var revision: Revision
    public var time: Timestamp
    /// The name of the token whose session sent the mutation.
    public var author: String
    /// The client instance that sent it; nil for server-made commits.
    public var clientInstance: ClientInstanceID?
    /// The action as the author sent it; nil for server-made commits.
    public var action: MutationAction?
    public var change: HistoryChangeKind
    public var fields: [FieldChange]

    public init(
        revision: Revision,
        time: Timestamp,
        author: String,
        clientInstance: ClientInstanceID?,
        action: MutationAction?,
        change: HistoryChangeKind,
        fields: [FieldChange]
    ) {
        self.revision = revision
        self.time = time
        self.author = author
        self.clientInstance = clientInstance
        self.action = action
        self.change = change
        self.fields = fields
    }
}
