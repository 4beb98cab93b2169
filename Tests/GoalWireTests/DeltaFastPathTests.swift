import Foundation
import GoalModel
import GoalTestSlots
import Testing

@testable import GoalWire

/// The direct delta reader (`DeltaFrameReader`) against the strict path: on goald's own `delta` frames both give
/// the same `ChangesetDelta`, and on altered bytes `ServerMessage.decode` gives the strict path's outcome exactly.
@Suite("Delta frames: the direct reader equals the strict path", .slotted)
struct DeltaFastPathTests {
    /// A random delta with every lean change kind, built from a generated changeset's changes.
    static func delta(_ random: inout TestRandom, revision: Revision) -> ChangesetDelta {
        let changeset = ChangesetGenerator.changeset(&random, revision: revision)
        let changes: [DeltaChange] = changeset.changes.compactMap { change in
            switch change {
            case .playerUpserted(let player): .player(id: player.id, name: player.name, nameKey: player.nameKey)
            case .playerDeleted(let id): .playerDeleted(id)
            case .matchUpserted(let match):
                .match(
                    id: match.id,
                    MatchUpdate(
                        homePlayers: random.chance(50) ? match.homePlayers : nil,
                        awayPlayers: random.chance(50) ? match.awayPlayers : nil,
                        homeGoals: random.chance(50) ? match.homeGoals : nil,
                        awayGoals: random.chance(50) ? match.awayGoals : nil
                    )
                )
            case .matchDeleted(let id): .matchDeleted(id)
            case .ratingUpdated: nil
            }
        }
        return ChangesetDelta(
            revision: revision,
            mutationID: changeset.mutationID ?? MutationID(instance: ChangesetGenerator.instance(&random), seq: 1),
            author: changeset.author,
            time: changeset.time,
            action: changeset.action,
            changes: changes,
            digest: ChangesetFrame.encode(changeset, previousDigest: .genesis).digest
        )
    }

    @Test("goald's delta frames: the direct reader reads them, to the strict path's value")
    func generatedFrames() {
        var random = TestRandom(seed: 23)
        var recognised = 0
        for index in 0..<400 {
            let delta = Self.delta(&random, revision: Revision(index + 1))
            let bytes = DeltaFrame.encode(delta)
            #expect(ChangesetFastPathTests.strict(bytes) == .success(.delta(delta)))
            #expect(ChangesetFastPathTests.fast(bytes) == .success(.delta(delta)))
            #expect(ChangesetFrame.peek(bytes)?.revision == delta.revision)
            if let direct = DeltaFrameReader.read(bytes) {
                #expect(direct == delta)
                recognised += 1
            } else {
                #expect(bytes.contains(UInt8(ascii: "\\")), "not recognised: \(String(decoding: bytes, as: UTF8.self))")
            }
        }
        #expect(recognised > 100)
    }

    @Test("truncated, mutated, re-spaced and reordered delta frames: the same outcome as the strict path")
    func alteredFrames() {
        var random = TestRandom(seed: 41)
        var results: [String: Int] = [:]
        for index in 0..<150 {
            let bytes = DeltaFrame.encode(Self.delta(&random, revision: Revision(index + 1)))
            for altered in FrameAlterations.all(of: bytes, random: &random) {
                let strict = ChangesetFastPathTests.strict(altered)
                #expect(ChangesetFastPathTests.fast(altered) == strict, "\(String(decoding: altered, as: UTF8.self))")
                switch strict {
                case .success: results["value", default: 0] += 1
                case .failure: results["error", default: 0] += 1
                }
            }
        }
        #expect(results["value", default: 0] > 300)
        #expect(results["error", default: 0] > 1_000)
    }
}
