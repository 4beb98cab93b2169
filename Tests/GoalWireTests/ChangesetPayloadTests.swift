import Foundation
import GoalModel
import GoalTestSlots
import Testing

@testable import GoalWire

/// The digest check from the frame's own bytes (`ChangesetFrame.Payload`, recorded by the direct reader) against
/// the re-encoding check (`ChangesetFrame.verify(_:previousDigest:)`): the same payload bytes, the same digest, the
/// same verdict on goald's frames and on every altered frame the direct reader still accepts.
@Suite("Changeset frames: the digest from the frame's slices equals the re-encoded one", .slotted)
struct ChangesetPayloadTests {
    @Test("goald's frames of a generated chain: the slices are the canonical payload and give d_R")
    func generatedChain() throws {
        var random = TestRandom(seed: 23)
        var previous = Digest.genesis
        var shapes: [String: Int] = [:]
        for index in 0..<400 {
            let changeset = ChangesetGenerator.changeset(&random, revision: Revision(index + 1))
            let frame = ChangesetFrame.encode(changeset, previousDigest: previous)
            let (message, payload) = try ServerMessage.decodeWithPayload(frame.bytes)
            guard case .changeset(let decoded) = message else {
                Issue.record("not a changeset")
                return
            }
            #expect(ChangesetFrame.verify(decoded, previousDigest: previous))
            if let payload {
                #expect(payload.bytes == ChangesetFrame.payload(of: decoded))
                #expect(payload.chainedDigest(previous: previous) == frame.digest)
                #expect(ChangesetFrame.verify(decoded, previousDigest: previous, payload: payload))
                // The wrong previous digest fails both ways.
                #expect(!ChangesetFrame.verify(decoded, previousDigest: frame.digest, payload: payload))
                #expect(!ChangesetFrame.verify(decoded, previousDigest: frame.digest))
                shapes[decoded.mutationID == nil ? "server-made" : "client", default: 0] += 1
                shapes[decoded.action == nil ? "no action" : "action", default: 0] += 1
                shapes[decoded.changes.isEmpty ? "no changes" : "changes", default: 0] += 1
            } else {
                // Only frames with escaped strings go the strict path, and they verify by re-encoding.
                #expect(frame.bytes.contains(UInt8(ascii: "\\")))
                #expect(ChangesetFrame.verify(decoded, previousDigest: previous, payload: nil))
                shapes["strict", default: 0] += 1
            }
            previous = frame.digest
        }
        for shape in ["server-made", "client", "no action", "action", "no changes", "changes", "strict"] {
            #expect(shapes[shape, default: 0] > 5, "\(shape): \(shapes)")
        }
    }

    @Test(
        "a byte changed in a member the payload covers fails both checks",
        arguments: ["changes", "action", "author", "client_instance", "time", "revision", "seq"]
    )
    func tamperedMember(member: String) throws {
        var random = TestRandom(seed: 41)
        var tampered = 0
        for index in 0..<300 {
            let changeset = ChangesetGenerator.changeset(&random, revision: Revision(index + 1))
            let bytes = ChangesetFrame.encode(changeset, previousDigest: .genesis).bytes
            guard let value = Self.valueRange(of: member, in: bytes) else { continue }
            for _ in 0..<4 {
                let position = value.lowerBound + random.below(value.count)
                guard let replacement = Self.sameKindByte(bytes[position], &random) else { continue }
                var altered = bytes
                altered[position] = replacement
                // Only alterations the direct reader still accepts exercise the slices.
                guard let read = ChangesetFrameReader.read(altered) else { continue }
                #expect(read.changeset != ChangesetFrameReader.read(bytes)?.changeset)
                #expect(!ChangesetFrame.verify(read.changeset, previousDigest: .genesis, payload: read.payload))
                #expect(!ChangesetFrame.verify(read.changeset, previousDigest: .genesis))
                #expect(read.payload.chainedDigest(previous: .genesis) != read.changeset.digest)
                tampered += 1
            }
        }
        #expect(tampered > 20, "\(member): \(tampered) tampered frames read")
    }

    @Test("every altered frame the direct reader accepts: its slices are the canonical payload, the verdicts agree")
    func alteredFrames() {
        var random = TestRandom(seed: 7)
        var accepted = 0
        var valid = 0
        for index in 0..<200 {
            let changeset = ChangesetGenerator.changeset(&random, revision: Revision(index + 1))
            let bytes = ChangesetFrame.encode(changeset, previousDigest: .genesis).bytes
            for altered in FrameAlterations.all(of: bytes, random: &random) {
                guard let read = ChangesetFrameReader.read(altered) else { continue }
                accepted += 1
                #expect(
                    read.payload.bytes == ChangesetFrame.payload(of: read.changeset),
                    "\(String(decoding: altered, as: UTF8.self))"
                )
                let spliced = ChangesetFrame.verify(read.changeset, previousDigest: .genesis, payload: read.payload)
                #expect(spliced == ChangesetFrame.verify(read.changeset, previousDigest: .genesis))
                if spliced { valid += 1 }
            }
        }
        #expect(accepted > 200)
        // Alterations of the digest's own hex digits are still valid frames with a wrong digest; a valid one is
        // the original frame (an alteration that changed nothing, e.g. a byte replaced by itself).
        #expect(valid < accepted)
    }

    @Test("an uppercase UUID goes the strict path: it verifies by re-encoding, as its digest was made")
    func uppercaseUUID() throws {
        let match = MatchID()
        let changeset = Changeset(
            revision: 1,
            mutationID: MutationID(instance: ClientInstanceID("c1")!, seq: 1),
            author: "ann",
            time: Timestamp(millisecondsSince1970: 5),
            action: .deleteMatch(id: match),
            changes: [.matchDeleted(match)],
            digest: .genesis
        )
        let frame = ChangesetFrame.encode(changeset, previousDigest: .genesis)
        let lower = match.description
        let text = String(decoding: frame.bytes, as: UTF8.self)
        #expect(lower != lower.uppercased())
        let upper = Array(text.replacingOccurrences(of: lower, with: lower.uppercased()).utf8)
        #expect(ChangesetFrameReader.read(frame.bytes) != nil)
        #expect(ChangesetFrameReader.read(upper) == nil)
        let (message, payload) = try ServerMessage.decodeWithPayload(upper)
        #expect(payload == nil)
        guard case .changeset(let decoded) = message else {
            Issue.record("not a changeset")
            return
        }
        #expect(decoded.digest == frame.digest)
        #expect(ChangesetFrame.verify(decoded, previousDigest: .genesis, payload: payload))
    }

    @Test("a payload paired with another changeset is not trusted: the check re-encodes that changeset")
    func mismatchedPair() throws {
        func changeset(_ revision: Revision, author: String) -> Changeset {
            let match = MatchID()
            return Changeset(
                revision: revision,
                mutationID: nil,
                author: author,
                time: Timestamp(millisecondsSince1970: 5),
                action: nil,
                changes: [.matchDeleted(match)],
                digest: .genesis
            )
        }
        let firstFrame = ChangesetFrame.encode(changeset(1, author: "ann"), previousDigest: .genesis)
        let secondFrame = ChangesetFrame.encode(changeset(2, author: "bob"), previousDigest: firstFrame.digest)
        let first = try #require(ChangesetFrameReader.read(firstFrame.bytes))
        let second = try #require(ChangesetFrameReader.read(secondFrame.bytes))
        // Hashing the other frame's slices would fail both; re-encoding each changeset succeeds.
        #expect(ChangesetFrame.verify(second.changeset, previousDigest: firstFrame.digest, payload: first.payload))
        #expect(ChangesetFrame.verify(first.changeset, previousDigest: .genesis, payload: second.payload))
    }

    // MARK: Helpers

    /// The bytes of a top-level member's value in a frame written by `ChangesetFrame.encode`, or nil when absent.
    static func valueRange(of member: String, in bytes: [UInt8]) -> Range<Int>? {
        let text = String(decoding: bytes, as: UTF8.self)
        let order = ["revision", "digest", "time", "action", "author", "changes", "client_instance", "seq"]
        guard let key = text.range(of: "\"\(member)\":") else { return nil }
        let start = text.utf8.distance(from: text.startIndex, to: key.upperBound)
        var end = bytes.count - 1
        for next in order.drop(while: { $0 != member }).dropFirst() {
            if let range = text.range(of: ",\"\(next)\":", range: key.upperBound..<text.endIndex) {
                end = text.utf8.distance(from: text.startIndex, to: range.lowerBound)
                break
            }
        }
        return start < end ? start..<end : nil
    }

    /// Another byte of the same kind (digit, lowercase hex letter, other ASCII letter), so the frame stays goald's
    /// layout as often as possible; nil for punctuation and non-ASCII bytes.
    static func sameKindByte(_ byte: UInt8, _ random: inout TestRandom) -> UInt8? {
        let kinds = [
            Array("0123456789".utf8), Array("abcdef".utf8),
            Array("ghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8),
        ]
        guard let kind = kinds.first(where: { $0.contains(byte) }) else { return nil }
        let others = kind.filter { $0 != byte }
        return ChangesetGenerator.pick(others, &random)
    }
}
