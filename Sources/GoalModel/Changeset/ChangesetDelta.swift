/// A changeset as protocol 2 sends it live (docs/PROTOCOL.md §5, "Lean changesets"): only what a replica at the
/// revision before cannot know. Every field the commit wrote carries the stamp (the commit's client instance,
/// its revision), so stamps are not sent; fields it did not write are not sent; ratings are not sent, because a
/// replica derives them from the match change exactly as the engine does (`expand(in:)`).
///
/// `init?(_:)` makes one from a full changeset with no other input (so every node makes the same one), and
/// `expand(in:)` gives the full changeset back from a replica at `revision − 1`; the digest chain is the full
/// changeset's, unchanged. A changeset that does not have the engine's shapes (a server-made commit, a rating
/// without its match, a stamp that is neither this commit's nor older) has no lean form and travels whole.
///
/// Value type, `Sendable`; pure.
public struct ChangesetDelta: Hashable, Sendable {
    public var revision: Revision
    /// The mutation that made the commit: its instance is the writer of every stamp the commit set.
    public var mutationID: MutationID
    public var author: String
    public var time: Timestamp
    public var action: MutationAction?
    public var changes: [DeltaChange]
    /// d_R of the full changeset.
    public var digest: Digest

    public init(
        revision: Revision,
        mutationID: MutationID,
        author: String,
        time: Timestamp,
        action: MutationAction?,
        changes: [DeltaChange],
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

    /// The stamp of every field this commit wrote.
    public var stamp: FieldStamp { FieldStamp(revision: revision, writer: mutationID.instance) }
}

/// One change of a `ChangesetDelta`. Value type, `Sendable`.
public enum DeltaChange: Hashable, Sendable {
    /// A player created (when the replica has no player with this id: it also gets a zero rating) or renamed.
    case player(id: PlayerID, name: String, nameKey: String)
    case playerDeleted(PlayerID)
    /// A match created (every field written, the replica has no match with this id) or changed (only the written
    /// fields); followed, in the full changeset, by the ratings of its old ∪ new players.
    case match(id: MatchID, MatchUpdate)
    /// A match removed; followed, in the full changeset, by the ratings of its players.
    case matchDeleted(MatchID)
}

extension ChangesetDelta {
    /// The lean form of a full changeset, or nil when it has none (it is then sent whole).
    public init?(_ changeset: Changeset) {
        guard let mutationID = changeset.mutationID else { return nil }
        let stamp = FieldStamp(revision: changeset.revision, writer: mutationID.instance)
        var lean = LeanChanges(stamp: stamp, changes: changeset.changes)
        guard let changes = lean.make() else { return nil }
        self.init(
            revision: changeset.revision,
            mutationID: mutationID,
            author: changeset.author,
            time: changeset.time,
            action: changeset.action,
            changes: changes,
            digest: changeset.digest
        )
    }
}

/// Walks a full changeset's changes and keeps what a replica cannot derive; nil at the first change whose shape
/// is not one the engine makes.
private struct LeanChanges {
    let stamp: FieldStamp
    let changes: [Change]
    var index = 0

    init(stamp: FieldStamp, changes: [Change]) {
        self.stamp = stamp
        self.changes = changes
    }

    mutating func make() -> [DeltaChange]? {
        var lean: [DeltaChange] = []
        lean.reserveCapacity(1)
        while index < changes.count {
            let change = changes[index]
            index += 1
            switch change {
            case .playerUpserted(let player):
                guard player.nameStamp == stamp else { return nil }
                if player.created == stamp {
                    // A creation: the engine adds the new player's zero rating right after it.
                    guard index < changes.count, case .ratingUpdated(let rating) = changes[index],
                        rating == Rating(playerID: player.id)
                    else { return nil }
                    index += 1
                } else if player.created.revision >= stamp.revision {
                    return nil
                }
                lean.append(.player(id: player.id, name: player.name, nameKey: player.nameKey))
            case .playerDeleted(let id):
                lean.append(.playerDeleted(id))
            case .matchUpserted(let match):
                guard let update = written(match) else { return nil }
                lean.append(.match(id: match.id, update))
                skipRatings()
            case .matchDeleted(let id):
                lean.append(.matchDeleted(id))
                skipRatings()
            case .ratingUpdated:
                return nil  // a rating that follows no match: not derivable
            }
        }
        return lean
    }

    /// The fields of `match` this commit wrote; nil when a stamp is neither this commit's nor older, or a created
    /// match does not have every field written.
    private func written(_ match: Match) -> MatchUpdate? {
        var update = MatchUpdate()
        for field in MatchField.allCases {
            let fieldStamp = match.stamps[field]
            if fieldStamp == stamp {
                switch field {
                case .homePlayers: update.homePlayers = match.homePlayers
                case .awayPlayers: update.awayPlayers = match.awayPlayers
                case .homeGoals: update.homeGoals = match.homeGoals
                case .awayGoals: update.awayGoals = match.awayGoals
                }
            } else if fieldStamp.revision >= stamp.revision {
                return nil
            }
        }
        if match.created == stamp {
            guard update.writtenFields.count == MatchField.allCases.count else { return nil }
        } else if match.created.revision >= stamp.revision {
            return nil
        }
        return update
    }

    /// Steps over the ratings that follow a match change: the replica derives them.
    private mutating func skipRatings() {
        while index < changes.count, case .ratingUpdated = changes[index] { index += 1 }
    }
}
