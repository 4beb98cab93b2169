/// A commit the conflict engine made: everything a `Changeset` holds except the server time and the chained
/// digest, which the server adds (`changeset(time:digest:)`). Value type, `Sendable`.
///
/// `changes` order is canonical, because the digest covers it: the entity change first; a created player is
/// followed by its zero `.ratingUpdated`; a match change is followed by one `.ratingUpdated` per player of old ∪ new players — old players first (home, then away), then
/// new players not already listed (home, then away) — each with the rating after the commit.
public struct Commit: Hashable, Sendable {
    /// The new revision: the previous state revision + 1.
    public let revision: Revision
    /// The mutation that made the commit.
    public let mutationID: MutationID
    /// The author: the name of the token whose session sent the mutation.
    public let author: String
    /// The action as the author sent it.
    public let action: MutationAction
    /// The entity-level changes, in canonical order.
    public let changes: [Change]

    public init(revision: Revision, mutationID: MutationID, author: String, action: MutationAction, changes: [Change]) {
        self.revision = revision
        self.mutationID = mutationID
        self.author = author
        self.action = action
        self.changes = changes
    }

    /// The changeset clients receive for this commit.
    /// - Parameters:
    ///   - time: The server time of the commit.
    ///   - digest: d_R = SHA-256(d_R−1 ‖ payload_R), computed by GoalWire.
    /// - Returns: The changeset at `revision`.
    public func changeset(time: Timestamp, digest: Digest) -> Changeset {
        Changeset(
            revision: revision,
            mutationID: mutationID,
            author: author,
            time: time,
            action: action,
            changes: changes,
            digest: digest
        )
    }
}
