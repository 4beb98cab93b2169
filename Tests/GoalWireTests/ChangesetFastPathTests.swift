import Foundation
import GoalModel
import GoalTestSlots
import Testing

@testable import GoalWire

/// The direct changeset reader (`ChangesetFrameReader`) against the strict path (`JSONParser` + `ModelReader`):
/// on goald's own frames both give the same changeset, and on any altered bytes `ServerMessage.decode` gives the
/// strict path's outcome exactly (the same value or the same error).
@Suite("Changeset frames: the direct reader equals the strict path", .slotted)
struct ChangesetFastPathTests {
    typealias Outcome = Result<ServerMessage, WireDecodingError>

    static func fast(_ bytes: [UInt8], limit: Int = ServerMessage.maxMessageBytes) -> Outcome {
        Result { () throws(WireDecodingError) in try ServerMessage.decode(bytes, limit: limit) }
    }

    static func strict(_ bytes: [UInt8], limit: Int = ServerMessage.maxMessageBytes) -> Outcome {
        Result { () throws(WireDecodingError) in try ServerMessage.decodeStrictly(bytes, limit: limit) }
    }

    @Test("goald's frames of generated changesets: the direct reader reads them, to the strict path's value")
    func generatedFrames() {
        var random = TestRandom(seed: 17)
        var recognised = 0
        var withEscapes = 0
        for index in 0..<400 {
            let changeset = ChangesetGenerator.changeset(&random, revision: Revision(index + 1))
            let frame = ChangesetFrame.encode(changeset, previousDigest: .genesis)
            var signed = changeset
            signed.digest = frame.digest
            #expect(Self.strict(frame.bytes) == .success(.changeset(signed)))
            #expect(Self.fast(frame.bytes) == .success(.changeset(signed)))
            if let direct = ChangesetFrameReader.read(frame.bytes) {
                #expect(direct.changeset == signed)
                recognised += 1
            } else {
                // The reader leaves only escaped strings to the strict path.
                #expect(
                    frame.bytes.contains(UInt8(ascii: "\\")),
                    "not recognised: \(String(decoding: frame.bytes, as: UTF8.self))"
                )
                withEscapes += 1
            }
        }
        #expect(recognised > 100)
        #expect(withEscapes > 0)
    }

    @Test("truncated, mutated, re-spaced and reordered frames: the same outcome as the strict path")
    func alteredFrames() {
        var random = TestRandom(seed: 99)
        var results: [String: Int] = [:]
        for index in 0..<150 {
            let changeset = ChangesetGenerator.changeset(&random, revision: Revision(index + 1))
            let bytes = ChangesetFrame.encode(changeset, previousDigest: .genesis).bytes
            for altered in FrameAlterations.all(of: bytes, random: &random) {
                let strict = Self.strict(altered)
                #expect(Self.fast(altered) == strict, "\(String(decoding: altered, as: UTF8.self))")
                switch strict {
                case .success: results["value", default: 0] += 1
                case .failure: results["error", default: 0] += 1
                }
            }
        }
        // Both kinds of outcome were compared, many times each.
        #expect(results["value", default: 0] > 500)
        #expect(results["error", default: 0] > 2_000)
    }

    @Test("a frame over the limit is too large on both paths")
    func limit() {
        var random = TestRandom(seed: 5)
        let bytes = ChangesetFrame.encode(ChangesetGenerator.changeset(&random, revision: 1), previousDigest: .genesis)
            .bytes
        let outcome = Self.fast(bytes, limit: bytes.count - 1)
        #expect(outcome == Self.strict(bytes, limit: bytes.count - 1))
        guard case .failure(let error) = outcome else {
            Issue.record("a frame over the limit decoded")
            return
        }
        #expect(error == .tooLarge(size: bytes.count, limit: bytes.count - 1))
    }

    @Test(
        "hand-made variants the writer never produces go to the strict path",
        arguments: [
            // -0, an exponent, a fraction, a leading zero, whitespace, an uppercase digest, a trailing space.
            (#""revision":7,"#, #""revision":-0,"#),
            (#""revision":7,"#, #""revision":7e0,"#),
            (#""revision":7,"#, #""revision":7.0,"#),
            (#""revision":7,"#, #""revision":07,"#),
            (#""revision":7,"#, #""revision": 7,"#),
            (#""author":"ann""#, #""author":"\u0061nn""#),
            (#""author":"ann""#, #""author":"a\/nn""#),
            (#""changes":["#, #""unknown":1,"changes":["#),
            (#""seq":3}"#, #""seq":3} "#),
            (#""seq":3}"#, #""seq":3,"seq":4}"#),
        ]
    )
    func handMade(original: String, replacement: String) throws {
        let changeset = Changeset(
            revision: 7,
            mutationID: MutationID(instance: ClientInstanceID("c1")!, seq: 3),
            author: "ann",
            time: Timestamp(millisecondsSince1970: -5),
            action: .deleteMatch(id: MatchID()),
            changes: [.matchDeleted(MatchID())],
            digest: .genesis
        )
        let text = String(decoding: ChangesetFrame.encode(knownDigest: changeset).bytes, as: UTF8.self)
        #expect(text.contains(original))
        let altered = Array(text.replacingOccurrences(of: original, with: replacement).utf8)
        #expect(ChangesetFrameReader.read(altered) == nil)
        #expect(Self.fast(altered) == Self.strict(altered))
    }
}
