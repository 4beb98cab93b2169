import HashTreeCollections

/// Replaying changesets another writer committed: a goald node that shares its store with other nodes applies
/// their commits to its own state (docs/SCALING.md "One order"), and gets the state the committing node had.
extension LeagueState {
    /// Applies a committed changeset: each change replaces or removes one entity, and the derived parts (ratings,
    /// name-key index, match counts) move with it exactly as the engine's own writes move them. The exactly-once
    /// table is not touched: records travel separately (`replaceClientRecord(_:)`).
    ///
    /// O(size of the changeset) map operations.
    /// - Throws: `LeagueStateError.notNext` when `changeset.revision` is not `revision + 1` (nothing changed).
    public mutating func apply(_ changeset: Changeset) throws(LeagueStateError) {
        guard changeset.revision == revision + 1 else { throw .notNext(revision, changeset: changeset.revision) }
        for change in changeset.changes {
            switch change {
            case .playerUpserted(let player):
                if players[player.id] == nil { insertPlayer(player) } else { replacePlayer(player) }
            case .playerDeleted(let id):
                removePlayer(id)
            case .matchUpserted(let match):
                _ = writeMatch(old: matches[match.id], new: match)
            case .matchDeleted(let id):
                if let old = matches[id] { _ = writeMatch(old: old, new: nil) }
            case .ratingUpdated(let rating):
                // Recomputed by `writeMatch` already; the committed value wins if they ever differ.
                if players[rating.playerID] != nil { ratings[rating.playerID] = rating }
            }
        }
        revision = changeset.revision
    }

    /// Puts an exactly-once record as another writer stored it in place of this state's copy.
    public mutating func replaceClientRecord(_ record: ClientRecord) {
        clientRecords[record.instance] = record
    }
}
