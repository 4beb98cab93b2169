public import GoalModel
public import GoalWire

/// A client's copy of the league at one revision: players, matches and ratings by id, plus where that copy
/// stands in the server's history (revision, epoch and the chained digest d_revision).
///
/// Value type, `Sendable`; no lock and no identity: the `GoalClient` that owns it changes it only on its serial
/// scheduler, and hands copies to everyone else. Its maps are persistent (`ReplicaMap`): a copy costs O(1) and a
/// changeset applied after a copy was handed out copies only the entries it touches, never the league. Changes are entity-level: a changeset's `Change`s replace or
/// remove whole entries (ratings travel in the changeset too, so nothing is recomputed here).
public struct ReplicaState: Hashable, Sendable {
    /// The revision of the last changeset (or snapshot) applied; 0 for an empty replica.
    public private(set) var revision: Revision
    /// The epoch of the database this replica was built from; nil before the first `welcome`.
    public private(set) var epoch: LeagueEpoch?
    /// d_revision: the chained digest up to `revision` (`Digest.genesis` for an empty replica).
    public private(set) var digest: Digest
    /// Every player, by id.
    public private(set) var players: ReplicaMap<PlayerID, Player>
    /// Every match, by id.
    public private(set) var matches: ReplicaMap<MatchID, Match>
    /// Every rating (one per player), by player id.
    public private(set) var ratings: ReplicaMap<PlayerID, Rating>

    /// The empty replica: revision 0, no epoch, the genesis digest.
    public init() {
        revision = 0
        epoch = nil
        digest = .genesis
        players = [:]
        matches = [:]
        ratings = [:]
    }

    /// Builds a replica from a complete snapshot.
    public init(_ snapshot: Snapshot) {
        self.init()
        replace(with: snapshot)
    }

    /// True once the replica has been synced with some server (it has an epoch).
    public var hasSynced: Bool { epoch != nil }

    /// Records the epoch a `welcome` announced. A replica of another epoch is emptied first: its history is not
    /// the server's (the server sends a snapshot in that case).
    public mutating func adopt(epoch newEpoch: LeagueEpoch) {
        guard epoch != newEpoch else { return }
        if epoch != nil { self = ReplicaState() }
        epoch = newEpoch
    }

    /// Applies the next changeset.
    ///
    /// - Parameters:
    ///   - changeset: the changeset, as decoded.
    ///   - payload: its canonical payload in the frame it was decoded from (`ServerMessage.decodeWithPayload`):
    ///     the digest is then checked by hashing the frame's bytes; without one, by re-encoding the changeset.
    /// - Returns: true when the changeset was applied; false when the replica already has that revision (a
    ///   duplicate, dropped without a change).
    /// - Throws: `ReplicaError.gap` when revisions are missing before it, `.digestMismatch` when its digest does
    ///   not continue this replica's chain. The replica is unchanged when it throws.
    @discardableResult
    public mutating func apply(
        _ changeset: Changeset,
        payload: ChangesetFrame.Payload? = nil
    ) throws(ReplicaError) -> Bool {
        guard changeset.revision > revision else { return false }
        guard changeset.revision == revision + 1 else {
            throw .gap(expected: revision + 1, received: changeset.revision)
        }
        guard ChangesetFrame.verify(changeset, previousDigest: digest, payload: payload) else {
            throw .digestMismatch(revision: changeset.revision)
        }
        for change in changeset.changes {
            apply(change)
        }
        revision = changeset.revision
        digest = changeset.digest
        return true
    }

    /// Replaces everything with a snapshot's contents (revision, epoch, digest and every entity).
    public mutating func replace(with snapshot: Snapshot) {
        revision = snapshot.revision
        epoch = snapshot.epoch
        digest = snapshot.digest
        players = ReplicaMap(snapshot.players.lazy.map { ($0.id, $0) })
        matches = ReplicaMap(snapshot.matches.lazy.map { ($0.id, $0) })
        var ratings = ReplicaMap<PlayerID, Rating>()
        for player in snapshot.players { ratings[player.id] = Rating(playerID: player.id) }
        for rating in snapshot.ratings where players[rating.playerID] != nil { ratings[rating.playerID] = rating }
        self.ratings = ratings
    }

    /// One entity-level change: whole entities in, whole entities out.
    private mutating func apply(_ change: Change) {
        switch change {
        case .playerUpserted(let player):
            players[player.id] = player
            if ratings[player.id] == nil { ratings[player.id] = Rating(playerID: player.id) }
        case .playerDeleted(let id):
            players[id] = nil
            ratings[id] = nil
        case .matchUpserted(let match):
            matches[match.id] = match
        case .matchDeleted(let id):
            matches[id] = nil
        case .ratingUpdated(let rating):
            ratings[rating.playerID] = rating
        }
    }
}
