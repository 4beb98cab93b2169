import GoalModel
import GoalTestSlots
import GoalWire
import Testing

@Suite("Snapshot chunking", .slotted)
struct SnapshotChunkingTests {
    static func snapshot(players: Int, matches: Int) -> Snapshot {
        Snapshot(
            revision: 10_000,
            epoch: LeagueEpoch(rawValue: "e5f1c1d2"),
            digest: Digest(bytes: Array(repeating: 7, count: 32))!,
            players: (0..<players).map { Fixtures.player($0) },
            matches: (0..<matches).map { Fixtures.match($0, players: 1 + $0 % 3) },
            ratings: (0..<players).map { Fixtures.rating($0) }
        )
    }

    @Test("10,000 matches: every chunk ≤ 64 KiB, reassembly equals the input")
    func tenThousandMatches() throws {
        let snapshot = Self.snapshot(players: 500, matches: 10_000)
        let frames = SnapshotChunker.frames(of: snapshot)
        #expect(frames.count > 30)
        for frame in frames {
            #expect(frame.count <= WireProtocol.maxChunkBytes)
        }
        guard case .snapshotBegin(let begin) = try ServerMessage.decode(frames[0]) else {
            Issue.record("first frame is not snapshot_begin")
            return
        }
        var assembler = SnapshotAssembler(begin)
        var result: Snapshot?
        for frame in frames.dropFirst() {
            result = try assembler.receive(try ServerMessage.decode(frame))
        }
        #expect(result == snapshot)
    }

    @Test("chunks fill up: each is closed only when the next entity would not fit", arguments: [2048, 4096, 65536])
    func tightPacking(limit: Int) throws {
        let frames = SnapshotChunker.chunkFrames(
            players: (0..<50).map { Fixtures.player($0) },
            matches: (0..<50).map { Fixtures.match($0) },
            ratings: [],
            maxChunkBytes: limit
        )
        var players = 0
        var matches = 0
        for frame in frames {
            #expect(frame.count <= limit)
            guard case .snapshotChunk(let chunk) = try ServerMessage.decode(frame) else {
                Issue.record("not a chunk")
                return
            }
            #expect(!chunk.players.isEmpty || !chunk.matches.isEmpty)
            players += chunk.players.count
            matches += chunk.matches.count
        }
        #expect(players == 50 && matches == 50)
        // Packing is greedy: every chunk but the last is within one entity (< 700 bytes here) of the limit.
        for frame in frames.dropLast() {
            #expect(frame.count > limit - 700)
        }
    }

    @Test("an entity larger than the limit still travels, alone in its chunk")
    func oversizedEntity() throws {
        let frames = SnapshotChunker.chunkFrames(
            players: [Fixtures.player(1)],
            matches: [Fixtures.match(1, players: 40)],
            ratings: [Fixtures.rating(1)],
            maxChunkBytes: 1000
        )
        #expect(frames.count == 3)
        let decoded = try frames.map { try ServerMessage.decode($0) }
        #expect(decoded[1] == .snapshotChunk(ServerMessage.SnapshotChunk(matches: [Fixtures.match(1, players: 40)])))
    }

    @Test("an empty league is begin + end only")
    func empty() throws {
        let frames = SnapshotChunker.frames(of: Self.snapshot(players: 0, matches: 0))
        #expect(frames.count == 2)
        guard case .snapshotBegin(let begin) = try ServerMessage.decode(frames[0]) else {
            Issue.record("not a begin")
            return
        }
        var assembler = SnapshotAssembler(begin)
        #expect(try assembler.receive(try ServerMessage.decode(frames[1])) == Self.snapshot(players: 0, matches: 0))
    }

    @Test("the assembler refuses too many entities, a short count, a wrong end and foreign messages")
    func assemblerErrors() throws {
        let snapshot = Self.snapshot(players: 2, matches: 2)
        var assembler = SnapshotAssembler(snapshot.begin)
        #expect(throws: SnapshotAssemblyError.self) {
            try assembler.add(ServerMessage.SnapshotChunk(players: snapshot.players + snapshot.players))
        }
        let short = SnapshotAssembler(snapshot.begin)
        #expect(throws: SnapshotAssemblyError.countMismatch(entity: "players", announced: 2, received: 0)) {
            try short.finish(revision: snapshot.revision, digest: snapshot.digest)
        }
        #expect(throws: SnapshotAssemblyError.self) {
            try short.finish(revision: snapshot.revision + 1, digest: snapshot.digest)
        }
        var other = SnapshotAssembler(snapshot.begin)
        #expect(throws: SnapshotAssemblyError.unexpected(type: "caught_up")) {
            try other.receive(.caughtUp(head: 1))
        }
    }
}
