/// Server time of a commit, in whole milliseconds since 1970 (UTC). Passed in, never read, by GoalModel.
public struct Timestamp: Hashable, Comparable, Sendable {
    public var millisecondsSince1970: Int64

    public init(millisecondsSince1970: Int64) { self.millisecondsSince1970 = millisecondsSince1970 }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.millisecondsSince1970 < rhs.millisecondsSince1970
    }
}

/// One entity-level change inside a changeset. Entities travel whole (after the change), so a replica applies
/// a change by replacing or removing one entry.
public enum Change: Hashable, Sendable {
    case playerUpserted(Player)
    case playerDeleted(PlayerID)
    case matchUpserted(Match)
    case matchDeleted(MatchID)
    /// The new record of a player whose rating the commit changed (old ∪ new players of a changed match).
    case ratingUpdated(Rating)
}

/// A committed batch of changes at one revision: what every client receives, in revision order.
///
/// Value type, `Sendable`. `digest` chains it to the history before it (see `Digest`).
public struct Changeset: Hashable, Sendable {
    public var revision: Revision
    /// The mutation that caused the commit (nil for server-made commits).
    public var mutationID: MutationID?
    /// The author: the name of the token whose session sent the mutation.
    public var author: String
    /// Server time of the commit.
    public var time: Timestamp
    /// The action as the author sent it (lets `tail` print "home +1"); nil for server-made commits.
    public var action: MutationAction?
    public var changes: [Change]
    /// d_R = SHA-256(d_R−1 ‖ payload_R).
    public var digest: Digest

    public init(
        revision: Revision,
        mutationID: MutationID?,
        author: String,
        time: Timestamp,
        action: MutationAction?,
        changes: [Change],
        digest: Digest
    ) {
        self.revision = revision
        self.mutationID = mutationID
        self.author = author
        self.time = time
        self.action = action
        self.changes = changes
        self.digest = digest
    }
}
