import GoalModel
import GoalTestSlots
import GoalWire
import NIOCore
import Testing

@testable import GoalServer

/// The session's changeset stream as a state machine, driven directly (no sockets, no clock): live windows with
/// answers, catch-up steps, pages and snapshots in, writes out (issue 14 points 1, 3 and 13).
@Suite("a session's stream: what it writes, in which order, live and catching up", .slotted)
struct SessionStreamTests {
    private let allocator = ByteBufferAllocator()

    /// Frame r is the text "c<r>".
    private func window(head: Revision, revisions: ClosedRange<Revision>?, floor: Revision = 0) -> LiveWindow {
        var window = LiveWindow(head: revisions.map { $0.lowerBound - 1 } ?? head, allocator: allocator)
        if let revisions {
            var frames = allocator.buffer(capacity: 64)
            var ends: [Int] = []
            for revision in revisions {
                frames.writeString("c\(revision)")
                ends.append(frames.readableBytes)
            }
            window.append(
                DeliveryBatch(
                    frames: frames,
                    firstRevision: revisions.lowerBound,
                    frameEnds: ends,
                    head: revisions.upperBound,
                    headDigest: .genesis,
                    replies: [:],
                    durableAt: .now()
                ),
                keepingAfter: floor
            )
        }
        return window
    }

    private func reply(_ text: String, after: Revision) -> Reply {
        Reply(session: 1, frame: allocator.buffer(string: text), after: after)
    }

    /// The writes as readable strings: changeset bytes, replies, catch-up bytes, caught_up.
    private func render(_ writes: [SessionStream.Write]) -> [String] {
        writes.map { write in
            switch write {
            case .changesets(let frames, let count): "changesets(\(count)):" + String(buffer: frames)
            case .reply(let frame): "reply:" + String(buffer: frame)
            case .catchUp(let frames): "catchUp:" + String(buffer: frames)
            case .caughtUp(let head): "caught_up \(head)"
            }
        }
    }

    /// What one visit writes, collected in order.
    private func delivered(
        _ stream: inout SessionStream,
        _ window: LiveWindow,
        replies: [Reply]
    ) -> [SessionStream.Write] {
        Array(stream.deliver(window, replies: replies))
    }

    private func step(_ stream: inout SessionStream, writable: Bool = true, loopHead: Revision) -> String {
        switch stream.nextStep(writable: writable, loopHead: loopHead) {
        case .wait: "wait"
        case .readPage(let after, let upTo): "read (\(after), \(upTo)]"
        case .write(let writes): render(writes).joined(separator: " ")
        }
    }

    @Test("live: each answer right after the changeset it follows, also within one window")
    func liveAnswersInterleave() {
        var stream = SessionStream(mode: .live, since: 0, head: 0)
        let writes = delivered(
            &stream,
            window(head: 3, revisions: 1...3),
            replies: [reply("ack1", after: 1), reply("rejected", after: 1), reply("ack3", after: 3)]
        )
        #expect(
            render(writes) == ["changesets(1):c1", "reply:ack1", "reply:rejected", "changesets(2):c2c3", "reply:ack3"]
        )
        #expect(stream.sent == 3)
    }

    @Test("live: an answer for a revision the session already has goes out at once; the rest follows")
    func answerForAnOlderRevision() {
        var stream = SessionStream(mode: .live, since: 2, head: 2)
        let writes = delivered(&stream, window(head: 4, revisions: 1...4), replies: [reply("duplicate", after: 1)])
        #expect(render(writes) == ["reply:duplicate", "changesets(2):c3c4"])
    }

    @Test("backlog: windows only raise the target and answers wait; pages, then caught_up, then the held answers")
    func backlogThenLive() {
        var stream = SessionStream(mode: .backlog, since: 1, head: 3)
        #expect(stream.mode == .catchingUp(.backlog))
        #expect(delivered(&stream, window(head: 5, revisions: 4...5), replies: [reply("ack5", after: 5)]).isEmpty)
        #expect(stream.reply(allocator.buffer(string: "invalid")) == nil)
        #expect(step(&stream, writable: false, loopHead: 5) == "wait")
        #expect(step(&stream, loopHead: 5) == "read (1, 5]")
        #expect(step(&stream, loopHead: 5) == "wait", "one page at a time")
        #expect(stream.pageRead(last: 3) == nil)
        #expect(step(&stream, loopHead: 6) == "read (3, 6]", "the loop moved on: live only at its head")
        #expect(stream.pageRead(last: 6) == nil)
        #expect(step(&stream, loopHead: 6) == "caught_up 6 reply:ack5 reply:invalid")
        #expect(stream.isLive)
        #expect(render(delivered(&stream, window(head: 7, revisions: 7...7), replies: [])) == ["changesets(1):c7"])
    }

    @Test("snapshot: nothing until it is built, its frames while writable, then the changesets after it, no caught_up")
    func snapshotThenLive() {
        var stream = SessionStream(mode: .snapshot, since: nil, head: 4)
        #expect(step(&stream, loopHead: 4) == "wait")
        stream.snapshotArrived(
            revision: 4,
            frames: [allocator.buffer(string: "begin"), allocator.buffer(string: "end")]
        )
        #expect(step(&stream, loopHead: 5) == "catchUp:begin")
        #expect(step(&stream, writable: false, loopHead: 5) == "wait")
        #expect(step(&stream, loopHead: 5) == "catchUp:end")
        #expect(step(&stream, loopHead: 5) == "read (4, 5]")
        #expect(stream.pageRead(last: 5) == nil)
        #expect(step(&stream, loopHead: 5) == "")
        #expect(stream.isLive)
    }

    @Test("a live window that no longer reaches back sends the session to the log, answers held, no caught_up")
    func rejoinFromTheLog() {
        var stream = SessionStream(mode: .live, since: 2, head: 2)
        let gapped = window(head: 6, revisions: 5...6, floor: 4)
        #expect(delivered(&stream, gapped, replies: [reply("ack6", after: 6)]).isEmpty)
        #expect(stream.mode == .catchingUp(.rejoin))
        #expect(step(&stream, loopHead: 6) == "read (2, 6]")
        #expect(stream.pageRead(last: 6) == nil)
        #expect(step(&stream, loopHead: 6) == "reply:ack6")
    }

    @Test("an empty page while behind is a resync, not a loop")
    func emptyPage() {
        var stream = SessionStream(mode: .backlog, since: 0, head: 2)
        #expect(step(&stream, loopHead: 2) == "read (0, 2]")
        #expect(stream.pageRead(last: nil) == .nothingAfter(0))
    }

    @Test("live from a durable since newer than the loop's head: nothing up to since is sent again")
    func liveAheadOfTheLoop() {
        var stream = SessionStream(mode: .live, since: 5, head: 4)
        #expect(stream.sent == 5)
        #expect(render(delivered(&stream, window(head: 6, revisions: 5...6), replies: [])) == ["changesets(1):c6"])
    }
}
