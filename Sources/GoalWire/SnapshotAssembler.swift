public import GoalModel

/// Why a snapshot could not be assembled. Value type, `Sendable`; `description` says what differed.
public struct SnapshotAssemblyError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Kind: Hashable, Sendable {
        case countMismatch(entity: String, announced: Int, received: Int)
        case endMismatch(expected: Revision, found: Revision)
        case unexpected(type: String)
    }

    private let kind: Kind

    /// More or fewer entities arrived than `snapshot_begin` announced.
    public static func countMismatch(entity: String, announced: Int, received: Int) -> SnapshotAssemblyError {
        SnapshotAssemblyError(kind: .countMismatch(entity: entity, announced: announced, received: received))
    }

    /// `snapshot_end` names another revision or digest than `snapshot_begin`.
    public static func endMismatch(expected: Revision, found: Revision) -> SnapshotAssemblyError {
        SnapshotAssemblyError(kind: .endMismatch(expected: expected, found: found))
    }

    /// A message other than `snapshot_chunk` or `snapshot_end` arrived inside the snapshot.
    public static func unexpected(type: String) -> SnapshotAssemblyError {
        SnapshotAssemblyError(kind: .unexpected(type: type))
    }

    public var description: String {
        switch kind {
        case .countMismatch(let entity, let announced, let received):
            "snapshot: \(announced) \(entity) announced, \(received) received"
        case .endMismatch(let expected, let found):
            "snapshot: snapshot_end does not match snapshot_begin (revision \(expected) and its digest expected, \(found) found)"
        case .unexpected(let type):
            "snapshot: unexpected \(type) between snapshot_begin and snapshot_end"
        }
    }
}

/// Collects `snapshot_chunk` messages after a `snapshot_begin` and yields the `Snapshot` at `snapshot_end`.
///
/// Value type, `Sendable`; owned by one connection's reader. Any violation is a reason to reconnect (the stream
/// is not trustworthy), never a crash.
public struct SnapshotAssembler: Sendable {
    /// The announcement this assembler checks against.
    public let begin: ServerMessage.SnapshotBegin
    public private(set) var players: [Player] = []
    public private(set) var matches: [Match] = []
    public private(set) var ratings: [Rating] = []

    public init(_ begin: ServerMessage.SnapshotBegin) {
        self.begin = begin
        players.reserveCapacity(max(0, min(begin.players, 1 << 20)))
        matches.reserveCapacity(max(0, min(begin.matches, 1 << 20)))
    }

    /// Adds one chunk.
    /// - Throws: `countMismatch` as soon as more entities arrive than announced.
    public mutating func add(_ chunk: ServerMessage.SnapshotChunk) throws(SnapshotAssemblyError) {
        players += chunk.players
        matches += chunk.matches
        ratings += chunk.ratings
        if players.count > begin.players {
            throw .countMismatch(entity: "players", announced: begin.players, received: players.count)
        }
        if matches.count > begin.matches {
            throw .countMismatch(entity: "matches", announced: begin.matches, received: matches.count)
        }
        if ratings.count > begin.players {
            throw .countMismatch(entity: "ratings", announced: begin.players, received: ratings.count)
        }
    }

    /// Completes the snapshot on `snapshot_end`.
    /// - Throws: `endMismatch` or `countMismatch` when the end does not match the announcement.
    public func finish(revision: Revision, digest: Digest) throws(SnapshotAssemblyError) -> Snapshot {
        guard revision == begin.revision, digest == begin.digest else {
            throw .endMismatch(expected: begin.revision, found: revision)
        }
        guard players.count == begin.players else {
            throw .countMismatch(entity: "players", announced: begin.players, received: players.count)
        }
        guard matches.count == begin.matches else {
            throw .countMismatch(entity: "matches", announced: begin.matches, received: matches.count)
        }
        return Snapshot(
            revision: revision,
            epoch: begin.epoch,
            digest: digest,
            players: players,
            matches: matches,
            ratings: ratings
        )
    }

    /// Feeds the next message of the stream.
    /// - Returns: the snapshot on `snapshot_end`, nil after a chunk.
    /// - Throws: `unexpected` for any other message type, or a count or end mismatch.
    public mutating func receive(_ message: ServerMessage) throws(SnapshotAssemblyError) -> Snapshot? {
        switch message {
        case .snapshotChunk(let chunk):
            try add(chunk)
            return nil
        case .snapshotEnd(let revision, let digest):
            return try finish(revision: revision, digest: digest)
        default:
            throw .unexpected(type: message.type)
        }
    }
}
