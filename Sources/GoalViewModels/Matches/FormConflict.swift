public import GoalModel

/// A save that conflicted, as an edit form shows it: for each field someone else changed, the user's value
/// ("mine") beside the current one ("theirs"), so the user can take theirs, keep mine or cancel.
/// Value type, `Sendable`.
public struct FormConflict: Hashable, Sendable {
    /// One field both sides changed.
    public struct Field: Hashable, Sendable {
        /// "home goals", "away players".
        public let label: String
        public let mine: String
        public let theirs: String

        public init(label: String, mine: String, theirs: String) {
            self.label = label
            self.mine = mine
            self.theirs = theirs
        }
    }

    /// The fields in the server's order.
    public let fields: [Field]
    /// The match as it is now (what "take theirs" loads).
    public let current: Match

    public init(fields: [Field], current: Match) {
        self.fields = fields
        self.current = current
    }
}
