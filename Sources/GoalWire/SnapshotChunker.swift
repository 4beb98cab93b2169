public import GoalModel

/// A whole league at one durable revision, as a snapshot carries it. Value type, `Sendable`.
public struct Snapshot: Hashable, Sendable {
    public var revision: Revision
    public var epoch: LeagueEpoch
    /// d_revision.
    public var digest: Digest
    public var players: [Player]
    public var matches: [Match]
    /// One record per player that has one (at most one per player).
    public var ratings: [Rating]

    public init(
        revision: Revision,
        epoch: LeagueEpoch,
        digest: Digest,
        players: [Player],
        matches: [Match],
        ratings: [Rating]
    ) {
        self.revision = revision
        self.epoch = epoch
        self.digest = digest
        self.players = players
        self.matches = matches
        self.ratings = ratings
    }

    /// The `snapshot_begin` message announcing this snapshot.
    public var begin: ServerMessage.SnapshotBegin {
        ServerMessage.SnapshotBegin(
            revision: revision,
            epoch: epoch,
            digest: digest,
            players: players.count,
            matches: matches.count
        )
    }
}

/// Splits a snapshot into `snapshot_chunk` frames of at most `WireProtocol.maxChunkBytes` bytes each.
///
/// Entities go in order (players, then matches, then ratings), each whole, none dropped; a chunk is closed when
/// the next entity would push it past the limit. An entity that alone exceeds the limit (a match with more than
/// about 1,500 players) gets a frame of its own that exceeds it: the bound holds for every entity that fits.
/// Pure functions, safe from any thread.
public enum SnapshotChunker {
    /// Every frame of a snapshot, in order: `snapshot_begin`, the chunks, `snapshot_end`.
    public static func frames(of snapshot: Snapshot, maxChunkBytes: Int = WireProtocol.maxChunkBytes) -> [[UInt8]] {
        var frames = [ServerMessage.snapshotBegin(snapshot.begin).encoded()]
        frames += chunkFrames(
            players: snapshot.players,
            matches: snapshot.matches,
            ratings: snapshot.ratings,
            maxChunkBytes: maxChunkBytes
        )
        frames.append(ServerMessage.snapshotEnd(revision: snapshot.revision, digest: snapshot.digest).encoded())
        return frames
    }

    /// The `snapshot_chunk` frames carrying these entities, each at most `maxChunkBytes` long.
    /// - Returns: one frame per chunk; none when there is nothing to send.
    public static func chunkFrames(
        players: [Player],
        matches: [Match],
        ratings: [Rating],
        maxChunkBytes: Int = WireProtocol.maxChunkBytes
    ) -> [[UInt8]] {
        var builder = ChunkBuilder(limit: maxChunkBytes)
        for player in players { builder.add(.players) { $0.player(player) } }
        for match in matches { builder.add(.matches) { $0.match(match) } }
        for rating in ratings { builder.add(.ratings) { $0.rating(rating) } }
        return builder.finish()
    }

    /// One chunk frame, however large (for `ServerMessage.encoded()`).
    static func frame(_ chunk: ServerMessage.SnapshotChunk) -> [UInt8] {
        var builder = ChunkBuilder(limit: Int.max)
        for player in chunk.players { builder.add(.players) { $0.player(player) } }
        for match in chunk.matches { builder.add(.matches) { $0.match(match) } }
        for rating in chunk.ratings { builder.add(.ratings) { $0.rating(rating) } }
        return builder.finish().first ?? Array(#"{"type":"snapshot_chunk"}"#.utf8)
    }
}

/// Writes chunk frames, rolling back the last entity when it does not fit.
private struct ChunkBuilder {
    enum Group {
        case players, matches, ratings

        var opening: StaticString {
            switch self {
            case .players: #","players":["#
            case .matches: #","matches":["#
            case .ratings: #","ratings":["#
            }
        }
    }

    let limit: Int
    var frames: [[UInt8]] = []
    var writer = JSONWriter(capacity: 0)
    var open: Group?
    var entities = 0

    init(limit: Int) {
        self.limit = limit
        start()
    }

    mutating func start() {
        writer = JSONWriter(capacity: min(limit, WireProtocol.maxChunkBytes))
        writer.raw(#"{"type":"snapshot_chunk""#)
        open = nil
        entities = 0
    }

    mutating func add(_ group: Group, _ write: (inout JSONWriter) -> Void) {
        let mark = writer.bytes.count
        let markOpen = open
        append(group, write)
        // Closing needs "]}" (2 bytes).
        if writer.bytes.count + 2 > limit && entities > 0 {
            writer.bytes.removeSubrange(mark...)
            open = markOpen
            close()
            start()
            append(group, write)
        }
        entities += 1
    }

    private mutating func append(_ group: Group, _ write: (inout JSONWriter) -> Void) {
        if open == group {
            writer.byte(UInt8(ascii: ","))
        } else {
            if open != nil { writer.byte(UInt8(ascii: "]")) }
            writer.raw(group.opening)
            open = group
        }
        write(&writer)
    }

    private mutating func close() {
        if open != nil { writer.byte(UInt8(ascii: "]")) }
        writer.byte(UInt8(ascii: "}"))
        frames.append(writer.bytes)
    }

    mutating func finish() -> [[UInt8]] {
        if entities > 0 { close() }
        return frames
    }
}
