import Foundation
import GoalModel

/// The generated changesets' randomness: Fixtures' SplitMix64 (`SeededGenerator`), the same values on every run, so
/// a failure reproduces.
typealias TestRandom = SeededGenerator

extension SeededGenerator {
    init(seed: UInt64) { self.init(state: seed) }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
}

/// Random changesets of every shape goald writes: every change kind and action, server-made commits (no
/// `client_instance`, no `seq`, no action), names with escapes, non-ASCII and long text, extreme integers.
enum ChangesetGenerator {
    static let names = [
        "Ann", "Zoë Ünal", "李小龍", "Ada 🏓", "quote \" inside", "back\\slash", "tab\there", "new\nline",
        "bell\u{07}", "slash / plain", "", String(repeating: "long name ", count: 20), "e\u{301}",
    ]
    static let instances = ["8f14e45f-ceea-467f-a0e6-ae4ba9d5f9b1", "bob-laptop", "server", "Ünïcode-ïnstance"]

    static func changeset(_ random: inout TestRandom, revision: Revision) -> Changeset {
        let serverMade = random.chance(15)
        let changes = (0..<random.below(9)).map { _ in change(&random) }
        return Changeset(
            revision: revision,
            mutationID: serverMade
                ? nil
                : MutationID(instance: instance(&random), seq: random.chance(10) ? UInt64.max : random.next() % 10_000),
            author: pick(names, &random),
            time: Timestamp(
                millisecondsSince1970: random.chance(5) ? Int64.min : Int64(random.below(2_000_000_000_000)) - 1000
            ),
            action: serverMade ? nil : action(&random),
            changes: changes,
            digest: .genesis
        )
    }

    static func change(_ random: inout TestRandom) -> Change {
        switch random.below(5) {
        case 0: .playerUpserted(player(&random))
        case 1: .playerDeleted(PlayerID(uuid(&random)))
        case 2: .matchUpserted(match(&random))
        case 3: .matchDeleted(MatchID(uuid(&random)))
        default:
            .ratingUpdated(
                Rating(
                    playerID: PlayerID(uuid(&random)),
                    points: integer(&random),
                    played: integer(&random),
                    won: integer(&random),
                    drawn: integer(&random),
                    lost: integer(&random)
                )
            )
        }
    }

    static func action(_ random: inout TestRandom) -> MutationAction {
        switch random.below(7) {
        case 0: .createPlayer(id: PlayerID(uuid(&random)), name: pick(names, &random))
        case 1: .renamePlayer(id: PlayerID(uuid(&random)), name: pick(names, &random))
        case 2: .deletePlayer(id: PlayerID(uuid(&random)))
        case 3:
            .createMatch(
                id: MatchID(uuid(&random)),
                homePlayers: players(&random),
                awayPlayers: players(&random),
                homeGoals: integer(&random),
                awayGoals: integer(&random)
            )
        case 4:
            .updateMatch(
                id: MatchID(uuid(&random)),
                MatchUpdate(
                    homePlayers: random.chance(50) ? players(&random) : nil,
                    awayPlayers: random.chance(50) ? players(&random) : nil,
                    homeGoals: random.chance(50) ? integer(&random) : nil,
                    awayGoals: random.chance(50) ? integer(&random) : nil
                )
            )
        case 5:
            .adjustGoals(id: MatchID(uuid(&random)), side: random.chance(50) ? .home : .away, delta: integer(&random))
        default: .deleteMatch(id: MatchID(uuid(&random)))
        }
    }

    static func player(_ random: inout TestRandom) -> Player {
        let name = pick(names, &random)
        return Player(
            id: PlayerID(uuid(&random)),
            name: name,
            nameKey: name.lowercased(),
            created: stamp(&random),
            nameStamp: stamp(&random)
        )
    }

    static func match(_ random: inout TestRandom) -> Match {
        Match(
            id: MatchID(uuid(&random)),
            homePlayers: players(&random),
            awayPlayers: players(&random),
            homeGoals: integer(&random),
            awayGoals: integer(&random),
            created: stamp(&random),
            stamps: MatchStamps(
                homePlayers: stamp(&random),
                awayPlayers: stamp(&random),
                homeGoals: stamp(&random),
                awayGoals: stamp(&random)
            )
        )
    }

    static func stamp(_ random: inout TestRandom) -> FieldStamp {
        FieldStamp(revision: random.chance(5) ? UInt64.max : random.next() % 100_000, writer: instance(&random))
    }

    static func players(_ random: inout TestRandom) -> [PlayerID] {
        (0..<random.below(4)).map { _ in PlayerID(uuid(&random)) }
    }

    /// Mostly small, sometimes 0, negative or at the ends of `Int`.
    static func integer(_ random: inout TestRandom) -> Int {
        switch random.below(10) {
        case 0: 0
        case 1: -random.below(1000) - 1
        case 2: random.chance(50) ? Int.max : Int.min
        default: random.below(1000)
        }
    }

    static func uuid(_ random: inout TestRandom) -> UUID {
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &bytes) { raw in
            for index in 0..<16 { raw[index] = UInt8(truncatingIfNeeded: random.next()) }
        }
        return UUID(uuid: bytes)
    }

    static func instance(_ random: inout TestRandom) -> ClientInstanceID {
        ClientInstanceID(pick(instances, &random))!
    }

    static func pick<T>(_ values: [T], _ random: inout TestRandom) -> T { values[random.below(values.count)] }
}

/// Ways to spoil a frame: every truncation point sampled, single bytes replaced, inserted and removed, whitespace
/// between tokens, members moved.
enum FrameAlterations {
    /// Bytes that matter to a JSON reader, to put in place of others.
    static let interesting: [UInt8] =
        Array(#"0123456789-+.eE"\,:{}[] ABFafxn"#.utf8) + [0x00, 0x1F, 0x7F, 0x80, 0xC3, 0xFF]

    static func all(of bytes: [UInt8], random: inout TestRandom) -> [[UInt8]] {
        var out: [[UInt8]] = []
        for _ in 0..<6 { out.append(Array(bytes.prefix(random.below(bytes.count)))) }
        for _ in 0..<12 {
            var replaced = bytes
            replaced[random.below(bytes.count)] = ChangesetGenerator.pick(interesting, &random)
            out.append(replaced)
        }
        for _ in 0..<4 {
            var inserted = bytes
            inserted.insert(ChangesetGenerator.pick(interesting, &random), at: random.below(bytes.count + 1))
            out.append(inserted)
            var removed = bytes
            removed.remove(at: random.below(bytes.count))
            out.append(removed)
        }
        // Whitespace after a structural byte: still valid JSON, not goald's layout.
        let structural = bytes.indices.filter {
            [UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "{")].contains(bytes[$0])
        }
        for _ in 0..<3 where !structural.isEmpty {
            var spaced = bytes
            spaced.insert(
                ChangesetGenerator.pick([0x20, 0x0A, 0x09], &random),
                at: structural[random.below(structural.count)] + 1
            )
            out.append(spaced)
        }
        out.append(reordered(bytes))
        out.append(bytes + [0x20])
        return out
    }

    /// The frame with `"type"` moved behind `"revision"`: the same message in another key order.
    static func reordered(_ bytes: [UInt8]) -> [UInt8] {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let comma = text.range(of: #","digest":"#),
            let revision = text.range(of: #""revision":"#)
        else { return bytes }
        let revisionMember = text[revision.lowerBound..<comma.lowerBound]
        let rest = text[comma.upperBound...]
        return Array((#"{"# + revisionMember + #","type":"changeset","digest":"# + rest).utf8)
    }
}
