import GoalModel
public import GoalWire

extension ReplicaState {
    /// The replica as a complete snapshot (GoalWire's `Snapshot`: what `SnapshotChunker` encodes and
    /// `ReplicaState(_:)` reads back to an equal replica); nil before the first sync (no epoch).
    public var snapshot: Snapshot? {
        guard let epoch else { return nil }
        return Snapshot(
            revision: revision,
            epoch: epoch,
            digest: digest,
            players: playersByName(),
            matches: matchesNewestFirst(),
            ratings: ratings.values.filter { players[$0.playerID] != nil }.sorted { $0.playerID < $1.playerID }
        )
    }
}
