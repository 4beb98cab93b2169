import GoalModel
import GoalTestSlots
import GoalWire
import Testing

@testable import goal_load

@Suite("Lean frame reading", .slotted)
struct FrameReadingTests {
    private func frame(instance: String?, seq: UInt64, revision: Revision = 7) -> ChangesetFrame {
        let id = instance.map { MutationID(instance: ClientInstanceID($0)!, seq: seq) }
        let changeset = Changeset(
            revision: revision,
            mutationID: id,
            author: "load \"editor\"",
            time: Timestamp(millisecondsSince1970: 1_700_000_000_000),
            action: .deleteMatch(id: MatchID()),
            changes: [.matchDeleted(MatchID())],
            digest: .genesis
        )
        return ChangesetFrame.encode(changeset, previousDigest: .genesis)
    }

    @Test func readsInstanceAndSeqFromTheEndOfAFrame() {
        let encoded = frame(instance: "load-ab12-w3", seq: 123_456)
        let read = encoded.bytes.withUnsafeBufferPointer { buffer in
            FrameTail.read(buffer) { instance, seq in (String(decoding: instance, as: UTF8.self), seq) }
        }
        #expect(read?.0 == "load-ab12-w3")
        #expect(read?.1 == 123_456)
    }

    @Test func aFrameWithoutMutationIDHasNoTail() {
        let encoded = frame(instance: nil, seq: 0)
        let read = encoded.bytes.withUnsafeBufferPointer { buffer in FrameTail.read(buffer) { _, seq in seq } }
        #expect(read == nil)
    }

    @Test func otherMessagesHaveNoTail() {
        let ack = ServerMessage.ack(seq: 5, revision: 9, noop: false).encoded()
        let read = ack.withUnsafeBufferPointer { buffer in FrameTail.read(buffer) { _, seq in seq } }
        #expect(read == nil)
    }

    @Test func sendTimesAreFoundByWriterInstanceName() {
        let directory = SendTimeDirectory(prefix: "load-ab12-w", writers: 12) { $0 % 3 }
        directory.times(writer: 11).record(seq: 4, at: 9_000)
        directory.times(writer: 3).record(seq: 1, at: 7_000)
        #expect(directory.instanceName(writer: 11) == "load-ab12-w11")
        func sent(_ name: String, _ seq: UInt64) -> (at: UInt64, server: Int)? {
            var name = name
            return name.withUTF8 { directory.sent(instance: $0, seq: seq) }
        }
        func lookup(_ name: String, _ seq: UInt64) -> UInt64? { sent(name, seq)?.at }
        #expect(lookup("load-ab12-w11", 4) == 9_000)
        #expect(sent("load-ab12-w11", 4)?.server == 2, "writer 11 sends to node 11 % 3")
        #expect(sent("load-ab12-w3", 1)?.server == 0)
        directory.times(writer: 3).moved(to: 1)
        #expect(sent("load-ab12-w3", 1)?.server == 1, "a writer that moved on sends to its new node")
        #expect(lookup("load-ab12-w11", 5) == nil)
        #expect(lookup("load-ab12-w12", 4) == nil)
        #expect(lookup("load-zz99-w11", 4) == nil)
        #expect(lookup("load-ab12-w1x", 4) == nil)
    }
}
