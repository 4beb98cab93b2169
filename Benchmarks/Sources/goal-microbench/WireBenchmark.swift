import ArgumentParser
import Foundation
import GoalModel
import GoalWire

/// `goal-microbench wire`: encode, decode, peek and verify of a 100-change changeset frame.
///
/// The changeset is a realistic mix (matches with four players, their ratings, players, deletions). Each figure is
/// the best of `--repetitions` timed runs of `--iterations` operations: ops/s and MB/s of frame bytes.
struct WireBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wire",
        abstract: "Time changeset frame encode (with digest), decode, peek and verify; JSONSerialization as a baseline."
    )

    @Option(help: "Changes per changeset.")
    var changes: Int = 100

    @Option(help: "Operations per timed run (peek runs 100× as many).")
    var iterations: Int = 2_000

    @Option(help: "Timed runs per figure; the best is printed.")
    var repetitions: Int = 5

    func validate() throws {
        guard changes >= 0, iterations > 0, repetitions > 0 else {
            throw ValidationError("changes, iterations and repetitions must be positive")
        }
    }

    func run() throws {
        print(
            "swift run -c release --package-path Benchmarks goal-microbench wire "
                + "(\(changes) changes, best of \(repetitions) × \(iterations))"
        )
        let changeset = Self.changeset(changes: changes)
        let frame = ChangesetFrame.encode(changeset, previousDigest: .genesis)
        var signed = changeset
        signed.digest = frame.digest
        let size = frame.bytes.count
        print("frame: \(size) bytes")

        var sink = 0
        report("encode (frame + SHA-256 chain)", size: size, count: iterations) {
            sink &+= ChangesetFrame.encode(changeset, previousDigest: .genesis).bytes.count
        }
        report("encode (frame, known digest)", size: size, count: iterations) {
            sink &+= ChangesetFrame.encode(knownDigest: signed).bytes.count
        }
        // Foundation baseline: the model has no Codable conformances (GoalWire is its only codec), so the baseline
        // re-serializes the frame's object tree with sorted keys. try?: a failure shows as a zero checksum.
        let tree = try? JSONSerialization.jsonObject(with: Data(frame.bytes))
        report("JSONSerialization .sortedKeys (baseline)", size: size, count: iterations) {
            guard let tree else { return }
            sink &+=
                (try? JSONSerialization.data(withJSONObject: tree, options: [.sortedKeys, .withoutEscapingSlashes]))?
                .count ?? 0
        }
        report("decode (ServerMessage.decode)", size: size, count: iterations) {
            if case .changeset(let decoded)? = try? ServerMessage.decode(frame.bytes) { sink &+= decoded.changes.count }
        }
        report("verify (re-encode + SHA-256)", size: size, count: iterations) {
            sink &+= ChangesetFrame.verify(signed, previousDigest: .genesis) ? 1 : 0
        }
        report("peek (header only)", size: size, count: iterations * 100) {
            sink &+= Int(truncatingIfNeeded: ChangesetFrame.peek(frame.bytes)?.revision ?? 0)
        }
        print("(checksum \(sink))")
    }

    private func report(_ name: String, size: Int, count: Int, _ body: () -> Void) {
        for _ in 0..<min(count, 100) { body() }
        var best = Double.infinity
        for _ in 0..<repetitions {
            let start = ContinuousClock.now
            for _ in 0..<count { body() }
            let (seconds, attoseconds) = (ContinuousClock.now - start).components
            best = min(best, Double(seconds) + Double(attoseconds) / 1e18)
        }
        let opsPerSecond = Double(count) / best
        let megabytesPerSecond = opsPerSecond * Double(size) / 1_000_000
        print(
            name.padding(toLength: 38, withPad: " ", startingAt: 0)
                + String(
                    format: "%12.0f ops/s  %9.1f MB/s  %8.2f µs/op",
                    opsPerSecond,
                    megabytesPerSecond,
                    1e6 / opsPerSecond
                )
        )
    }

    /// A commit of `changes` changes: per match, the match and its four players' ratings; some players and deletions.
    static func changeset(changes: Int) -> Changeset {
        func id(_ n: Int, _ prefix: String) -> UUID {
            let tail = String(n, radix: 16)
            return UUID(
                uuidString: "\(prefix)-0000-4000-8000-" + String(repeating: "0", count: 12 - tail.count) + tail
            )!
        }
        let writer = ClientInstanceID("8f14e45f-ceea-467f-a0e6-ae4ba9d5f9b1")!
        let stamp = FieldStamp(revision: 4_100, writer: writer)
        var list: [Change] = []
        var n = 0
        while list.count < changes {
            let players = (0..<4).map { PlayerID(id(n * 4 + $0, "9a7e0000")) }
            switch n % 10 {
            case 8:
                let name = "Player Ünal \(n)"
                list.append(
                    .playerUpserted(
                        Player(id: players[0], name: name, nameKey: name.lowercased(), created: stamp, nameStamp: stamp)
                    )
                )
            case 9:
                list.append(.matchDeleted(MatchID(id(n, "3c0b0000"))))
            default:
                list.append(
                    .matchUpserted(
                        Match(
                            id: MatchID(id(n, "3c0b0000")),
                            homePlayers: Array(players[0..<2]),
                            awayPlayers: Array(players[2..<4]),
                            homeGoals: n % 10,
                            awayGoals: 7,
                            created: stamp
                        )
                    )
                )
                for player in players where list.count < changes {
                    list.append(
                        .ratingUpdated(Rating(playerID: player, points: 31, played: 17, won: 9, drawn: 4, lost: 4))
                    )
                }
            }
            n += 1
        }
        return Changeset(
            revision: 4_242,
            mutationID: MutationID(instance: writer, seq: 977),
            author: "alice",
            time: Timestamp(millisecondsSince1970: 1_767_225_600_123),
            action: .adjustGoals(id: MatchID(id(0, "3c0b0000")), side: .home, delta: 1),
            changes: Array(list.prefix(changes)),
            digest: .genesis
        )
    }
}
