public import GoalModel
public import GoalWire

extension ReplicaState {
    /// The full changeset of a lean one (`delta`, protocol 2), expanded against this replica, which must be at the
    /// revision before it; `apply(_:payload:)` then checks its digest as for any changeset.
    /// - Throws: `ReplicaError.gap` when the replica is not at `delta.revision − 1` (a lean changeset cannot be
    ///   expanded against any other revision); `.leanChangeset` when the delta does not fit the replica.
    public func expand(_ delta: ChangesetDelta) throws(ReplicaError) -> Changeset {
        guard delta.revision == revision + 1 else { throw .gap(expected: revision + 1, received: delta.revision) }
        do {
            return try delta.expand(in: ReplicaDeltaBase(replica: self))
        } catch {
            throw .leanChangeset(revision: delta.revision, error)
        }
    }
}

extension ReplicaState {
    /// The full changeset a stream message carries: a `changeset` as it is, a `delta` expanded against this replica
    /// (`expand(_:)`); nil for any other message.
    public func changeset(in message: ServerMessage) throws(ReplicaError) -> Changeset? {
        switch message {
        case .changeset(let changeset): changeset
        case .delta(let delta): try expand(delta)
        default: nil
        }
    }
}

/// The replica as `ChangesetDelta.expand(in:)` reads it.
private struct ReplicaDeltaBase: DeltaBase {
    let replica: ReplicaState

    func player(_ id: PlayerID) -> Player? { replica.players[id] }
    func match(_ id: MatchID) -> Match? { replica.matches[id] }
    func rating(_ id: PlayerID) -> Rating? { replica.ratings[id] }
}
