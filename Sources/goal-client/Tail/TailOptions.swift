import GoalModel

/// What `tail` follows and how it prints. Value type, `Sendable`.
struct TailOptions: Sendable {
    /// Print the changesets after this revision first; nil: only what happens from now on.
    var since: Revision?
    /// With `since`: accept a snapshot (and go on live) when the server cannot replay from `since`.
    var allowSnapshot: Bool
    /// One JSON object a line (the server's changeset message) instead of human lines.
    var json: Bool
}
