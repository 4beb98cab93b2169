public import GoalModel

/// What changed a replica: one applied changeset, or a snapshot that replaced everything.
///
/// Value type, `Sendable`; sent on `GoalClient.updates` (and `LeagueStore.updates`) after the replica property
/// holds the new state.
public enum ReplicaUpdate: Hashable, Sendable {
    /// A changeset was applied (live, or from a backlog).
    case changeset(Changeset)
    /// A snapshot replaced the whole replica at this revision.
    case snapshot(revision: Revision)

    /// The revision the replica holds after this update.
    public var revision: Revision {
        switch self {
        case .changeset(let changeset): changeset.revision
        case .snapshot(let revision): revision
        }
    }
}
