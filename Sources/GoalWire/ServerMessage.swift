public import GoalModel

/// Every message the server sends, discriminated on the wire by `type`.
///
/// Nothing that reflects revision R is sent before R is durable. `changeset` frames are normally built once by
/// `ChangesetFrame.encode(_:previousDigest:)` and fanned out as the same bytes; `encoded()` writes the same layout.
/// Value type, `Sendable`.
public enum ServerMessage: Hashable, Sendable {
    /// The answer to `hello`: where the server stands and how the session will catch up.
    case welcome(Welcome)
    /// One committed revision (backlog or live).
    case changeset(Changeset)
    /// One committed revision in its lean form (protocol 2, live): expand it with the replica at the revision
    /// before (`ChangesetDelta.expand(in:)`), then it is that changeset.
    case delta(ChangesetDelta)
    /// The backlog is done; every later changeset is live.
    case caughtUp(head: Revision)
    /// A snapshot replaces the backlog: its revision, epoch, digest and entity counts.
    case snapshotBegin(SnapshotBegin)
    /// Part of a snapshot; every frame ≤ `WireProtocol.maxChunkBytes`.
    case snapshotChunk(SnapshotChunk)
    /// The snapshot is complete; live changesets from `revision + 1` follow.
    case snapshotEnd(revision: Revision, digest: Digest)
    /// The mutation `seq` committed at `revision` (after its changeset), or changed nothing (`noop`).
    case ack(seq: UInt64, revision: Revision, noop: Bool)
    /// The mutation `seq` was refused.
    case rejected(seq: UInt64, MutationRejection)
    /// Too many mutations: `seq` (when one was refused) was not applied; retry after the delay.
    case rateLimited(seq: UInt64?, retryAfterMilliseconds: Int)
    /// The engine's inbox is full; the session stops reading for the delay.
    case overloaded(seq: UInt64?, retryAfterMilliseconds: Int)
    /// A fatal session error; a close with `code.closeCode` follows.
    case error(code: WireErrorCode, message: String)
    /// The answer to the session's `history` request: a page, or a refusal (the session goes on).
    case history(HistoryAnswer)
    /// Everyone present when the session opened (sessions whose hello asked for presence, right after `welcome`).
    case presenceState([PresenceMember])
    /// A member joined, changed its activity or left.
    case presence(PresenceEvent)

    /// The `type` values of this direction.
    public static let types = [
        "welcome", "changeset", "delta", "caught_up", "snapshot_begin", "snapshot_chunk", "snapshot_end", "ack",
        "rejected",
        "rate_limited", "overloaded", "error", "presence_state", "presence", "history",
    ]

    /// This message's `type` on the wire.
    public var type: String {
        switch self {
        case .welcome: "welcome"
        case .changeset: "changeset"
        case .delta: "delta"
        case .caughtUp: "caught_up"
        case .snapshotBegin: "snapshot_begin"
        case .snapshotChunk: "snapshot_chunk"
        case .snapshotEnd: "snapshot_end"
        case .ack: "ack"
        case .rejected: "rejected"
        case .rateLimited: "rate_limited"
        case .overloaded: "overloaded"
        case .error: "error"
        case .history: "history"
        case .presenceState: "presence_state"
        case .presence: "presence"
        }
    }

    /// The answer to a mutation from its outcome: `ack`, `ack` with `noop`, or `rejected`.
    public static func outcome(seq: UInt64, _ outcome: MutationOutcome) -> ServerMessage {
        switch outcome {
        case .committed(let revision): .ack(seq: seq, revision: revision, noop: false)
        case .noop(let revision): .ack(seq: seq, revision: revision, noop: true)
        case .rejected(let rejection): .rejected(seq: seq, rejection)
        }
    }

    /// How a session catches up after `welcome`.
    public enum SyncMode: String, Hashable, Sendable, CaseIterable {
        /// Changesets (since, head], then `caught_up`.
        case backlog
        /// `snapshot_begin`, chunks, `snapshot_end`, then live changesets.
        case snapshot
        /// Nothing to catch up (`since == head`, or `stream: acks`): live from now.
        case live
    }

    /// `welcome {protocol, epoch, head, head_digest, mode, role, server_time, node?}`.
    public struct Welcome: Hashable, Sendable {
        public var protocolVersion: Int
        /// The database's epoch (rotated by `goald restore`).
        public var epoch: LeagueEpoch
        /// The newest durable revision when the session registered.
        public var head: Revision
        /// d_head.
        public var headDigest: Digest
        public var mode: SyncMode
        /// The token's role.
        public var role: Role
        /// The server's clock, for display of relative times.
        public var serverTime: Timestamp
        /// Which goald node answered (its configured `nodeId`), when it says; several nodes may serve one league.
        /// Optional: older servers omit it, older clients ignore it.
        public var node: String?
        /// True when the server answers `history` requests. Older servers omit it (false): a client must not send
        /// them `history`, which they would close with `unknown_type`.
        public var history: Bool

        public init(
            protocolVersion: Int = WireProtocol.version,
            epoch: LeagueEpoch,
            head: Revision,
            headDigest: Digest,
            mode: SyncMode,
            role: Role,
            serverTime: Timestamp,
            node: String? = nil,
            history: Bool = false
        ) {
            self.protocolVersion = protocolVersion
            self.epoch = epoch
            self.head = head
            self.headDigest = headDigest
            self.mode = mode
            self.role = role
            self.serverTime = serverTime
            self.node = node
            self.history = history
        }
    }

    /// `snapshot_begin {revision, epoch, digest, players, matches}`: counts of what the chunks will carry.
    public struct SnapshotBegin: Hashable, Sendable {
        public var revision: Revision
        public var epoch: LeagueEpoch
        /// d_revision.
        public var digest: Digest
        /// How many players (and ratings: one per player) the chunks carry.
        public var players: Int
        /// How many matches the chunks carry.
        public var matches: Int

        public init(revision: Revision, epoch: LeagueEpoch, digest: Digest, players: Int, matches: Int) {
            self.revision = revision
            self.epoch = epoch
            self.digest = digest
            self.players = players
            self.matches = matches
        }
    }

    /// `snapshot_chunk {players?, matches?, ratings?}`: absent arrays are empty.
    public struct SnapshotChunk: Hashable, Sendable {
        public var players: [Player]
        public var matches: [Match]
        public var ratings: [Rating]

        public init(players: [Player] = [], matches: [Match] = [], ratings: [Rating] = []) {
            self.players = players
            self.matches = matches
            self.ratings = ratings
        }
    }
}
