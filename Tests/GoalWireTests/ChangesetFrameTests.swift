import Crypto
import Foundation
import GoalModel
import GoalTestSlots
import GoalWire
import Testing

@Suite("Changeset frames and the digest chain", .slotted)
struct ChangesetFrameTests {
    /// SHA-256 computed here with swift-crypto directly, independently of GoalWire's hashing path.
    static func sha256(_ bytes: [UInt8]) -> [UInt8] { Array(SHA256.hash(data: bytes)) }

    @Test("known answer: d_1 = SHA-256(32 zero bytes ‖ payload_1)")
    func knownAnswer() {
        let changeset = Fixtures.changeset(revision: 1, changes: 6)
        let payload = ChangesetFrame.payload(of: changeset)
        let expected = Self.sha256([UInt8](repeating: 0, count: 32) + payload)
        let frame = ChangesetFrame.encode(changeset, previousDigest: .genesis)
        #expect(frame.digest.bytes == expected)
        #expect(ChangesetFrame.digest(previous: .genesis, payload: payload).bytes == expected)
    }

    @Test("known answer on a fixed payload: the empty server commit")
    func knownAnswerFixedText() {
        let changeset = Changeset(
            revision: 1,
            mutationID: nil,
            author: "server",
            time: Timestamp(millisecondsSince1970: 0),
            action: nil,
            changes: [],
            digest: .genesis
        )
        let payload = ChangesetFrame.payload(of: changeset)
        #expect(String(decoding: payload, as: UTF8.self) == #"{"author":"server","changes":[],"revision":1,"time":0}"#)
        let frame = ChangesetFrame.encode(changeset, previousDigest: .genesis)
        #expect(frame.digest.bytes == Self.sha256([UInt8](repeating: 0, count: 32) + Array(payload)))
        #expect(
            String(decoding: frame.bytes, as: UTF8.self)
                == #"{"type":"changeset","revision":1,"digest":"\#(frame.digest.hex)","time":0,"author":"server","changes":[]}"#
        )
    }

    @Test("the chain links: d_2 = SHA-256(d_1 ‖ payload_2), and verify checks it")
    func chain() {
        let first = Fixtures.changeset(revision: 1, changes: 3)
        let second = Fixtures.changeset(revision: 2, changes: 5, previous: first.digest)
        #expect(second.digest.bytes == Self.sha256(first.digest.bytes + ChangesetFrame.payload(of: second)))
        #expect(ChangesetFrame.verify(first, previousDigest: .genesis))
        #expect(ChangesetFrame.verify(second, previousDigest: first.digest))
        #expect(!ChangesetFrame.verify(second, previousDigest: .genesis))
        var tampered = second
        tampered.author = "mallory"
        #expect(!ChangesetFrame.verify(tampered, previousDigest: first.digest))
    }

    @Test("changing any one byte of the payload changes the digest")
    func oneByteChanges() {
        let payload = ChangesetFrame.payload(of: Fixtures.changeset(changes: 4))
        let digest = ChangesetFrame.digest(previous: .genesis, payload: payload)
        for index in stride(from: 0, to: payload.count, by: 7) {
            var changed = payload
            changed[index] ^= 0x01
            #expect(ChangesetFrame.digest(previous: .genesis, payload: changed) != digest)
        }
        var previous = Digest.genesis.bytes
        previous[31] = 1
        #expect(ChangesetFrame.digest(previous: Digest(bytes: previous)!, payload: payload) != digest)
    }

    @Test("the frame starts with type, revision, digest and time; no key appears twice")
    func headerFirst() throws {
        let changeset = Fixtures.changeset(revision: 4242, changes: 10)
        let frame = ChangesetFrame.encode(changeset, previousDigest: .genesis)
        let text = String(decoding: frame.bytes, as: UTF8.self)
        #expect(
            text.hasPrefix(
                #"{"type":"changeset","revision":4242,"digest":"\#(frame.digest.hex)","time":1767225600123,"action":"#
            )
        )
        for key in [
            "\"type\":", "\"revision\":", "\"digest\":", "\"time\":", "\"author\":", "\"changes\":", "\"seq\":",
        ] {
            #expect(text.components(separatedBy: key).count == 2, "key \(key) appears once")
        }
        // Foundation's own parser accepts it as one object with those keys.
        let object = try #require(try JSONSerialization.jsonObject(with: Data(frame.bytes)) as? [String: Any])
        #expect(
            Set(object.keys) == [
                "type", "revision", "digest", "time", "action", "author", "changes", "client_instance", "seq",
            ]
        )
    }

    @Test("peek agrees with a full decode", arguments: [0, 1, 6, 100])
    func peekAgrees(changes: Int) throws {
        let changeset = Fixtures.changeset(revision: UInt64(changes) * 1_000_003 + 1, changes: changes)
        let frame = ChangesetFrame.encode(changeset, previousDigest: .genesis)
        let header = try #require(ChangesetFrame.peek(frame.bytes))
        guard case .changeset(let decoded) = try ServerMessage.decode(frame.bytes) else {
            Issue.record("not a changeset")
            return
        }
        #expect(header.revision == decoded.revision)
        #expect(header.digest == decoded.digest)
        #expect(header.time == decoded.time)
        #expect(
            header == ChangesetFrame.Header(revision: changeset.revision, digest: frame.digest, time: changeset.time)
        )
    }

    @Test("peek refuses other messages and damaged headers")
    func peekRefuses() {
        let frame = ChangesetFrame.encode(Fixtures.changeset(), previousDigest: .genesis).bytes
        #expect(ChangesetFrame.peek(ServerMessage.caughtUp(head: 4).encoded()) == nil)
        #expect(ChangesetFrame.peek([]) == nil)
        // The header ends right before `,"action"`: every shorter prefix lacks the byte after the time.
        let marker = Array(#","action""#.utf8)
        let headerEnd = (0...(frame.count - marker.count)).first { Array(frame[$0..<$0 + marker.count]) == marker }!
        #expect(ChangesetFrame.peek(Array(frame.prefix(headerEnd + 1))) != nil)
        for length in [1, 20, 32, 40, 100, 120, headerEnd - 1, headerEnd] {
            #expect(ChangesetFrame.peek(Array(frame.prefix(length))) == nil, "prefix \(length)")
        }
        var upper = frame
        let digestStart = Array(#"{"type":"changeset","revision":42,"digest":""#.utf8).count
        upper[digestStart] = UInt8(ascii: "G")
        #expect(ChangesetFrame.peek(upper) == nil)
        #expect(ChangesetFrame.peek(Array(#"{"type":"changeset","revision":99999999999999999999999,"#.utf8)) == nil)
    }

    @Test("a negative time survives the frame and peek")
    func negativeTime() throws {
        var changeset = Fixtures.changeset(changes: 1)
        changeset.time = Timestamp(millisecondsSince1970: -1234)
        let frame = ChangesetFrame.encode(changeset, previousDigest: .genesis)
        #expect(ChangesetFrame.peek(frame.bytes)?.time == changeset.time)
        changeset.digest = frame.digest
        #expect(try ServerMessage.decode(frame.bytes) == .changeset(changeset))
    }

    @Test("encode(knownDigest:) writes the same bytes as encode(_:previousDigest:)")
    func knownDigest() {
        let changeset = Fixtures.changeset(changes: 20)
        #expect(
            ChangesetFrame.encode(knownDigest: changeset) == ChangesetFrame.encode(changeset, previousDigest: .genesis)
        )
    }
}
