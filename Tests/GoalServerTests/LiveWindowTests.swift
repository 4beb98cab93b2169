import GoalModel
import GoalTestSlots
import NIOCore
import Testing

@testable import GoalServer

@Suite("a loop's live window: frames after the floor, appended in place, sliced per session", .slotted)
struct LiveWindowTests {
    private let allocator = ByteBufferAllocator()

    /// A batch of `revisions`; frame r is `size(r)` bytes of r's low byte.
    private func batch(
        _ revisions: ClosedRange<Revision>,
        size: (Revision) -> Int = { Int($0 % 50) + 1 }
    )
        -> DeliveryBatch
    {
        var frames = allocator.buffer(capacity: 64)
        var ends: [Int] = []
        for revision in revisions {
            frames.writeRepeatingByte(UInt8(truncatingIfNeeded: revision), count: size(revision))
            ends.append(frames.readableBytes)
        }
        return DeliveryBatch(
            frames: frames,
            firstRevision: revisions.lowerBound,
            frameEnds: ends,
            head: revisions.upperBound,
            headDigest: .genesis,
            replies: [:],
            durableAt: .now()
        )
    }

    /// The bytes the frames of `revisions` make, as `batch` writes them.
    private func bytes(_ revisions: ClosedRange<Revision>, size: (Revision) -> Int = { Int($0 % 50) + 1 }) -> [UInt8] {
        revisions.flatMap { Array(repeating: UInt8(truncatingIfNeeded: $0), count: size($0)) }
    }

    private func readable(_ buffer: ByteBuffer?) -> [UInt8]? {
        buffer.map { Array($0.readableBytesView) }
    }

    @Test("appends batches, drops what is at or below the floor, and slices exactly the frames after any sent")
    func appendsAndTrims() {
        var window = LiveWindow(head: 0, allocator: allocator)
        #expect(window.frames(after: 0) == nil)
        window.append(batch(1...3), keepingAfter: 0)
        window.append(batch(4...5), keepingAfter: 1)
        #expect(window.firstRevision == 2)
        #expect(window.head == 5)
        #expect(readable(window.frames) == bytes(2...5))
        for sent in Revision(1)...4 {
            #expect(window.reaches(back: sent))
            #expect(readable(window.frames(after: sent)) == bytes((sent + 1)...5), "after \(sent)")
        }
        #expect(window.frames(after: 5) == nil)
        #expect(window.reaches(back: 7), "ahead of the head: nothing to miss")
        #expect(!window.reaches(back: 0), "revision 1 is no longer in the window")
    }

    @Test("a floor at the head empties the window; a batch without frames changes nothing")
    func emptiesAtRest() {
        var window = LiveWindow(head: 10, allocator: allocator)
        window.append(batch(11...12), keepingAfter: 10)
        window.append(batch(13...13), keepingAfter: 12)
        #expect(readable(window.frames) == bytes(13...13))
        let empty = DeliveryBatch(
            frames: ByteBuffer(),
            firstRevision: 0,
            frameEnds: [],
            head: 13,
            headDigest: .genesis,
            replies: [:],
            durableAt: .now()
        )
        window.append(empty, keepingAfter: 13)
        #expect(readable(window.frames) == bytes(13...13))
        window.append(batch(14...15), keepingAfter: 13)
        #expect(window.firstRevision == 14)
        #expect(readable(window.frames(after: 13)) == bytes(14...15))
        #expect(!window.reaches(back: 12))
    }

    @Test("a slice a session still holds keeps its bytes while the window appends and trims past it")
    func heldSliceSurvives() {
        var window = LiveWindow(head: 0, allocator: allocator)
        window.append(batch(1...4), keepingAfter: 0)
        let held = window.frames(after: 2)
        window.append(batch(5...6), keepingAfter: 4)
        window.append(batch(7...7), keepingAfter: 6)
        #expect(readable(held) == bytes(3...4))
        #expect(readable(window.frames(after: 6)) == bytes(7...7))
    }

    @Test("a long stream with a rising floor reclaims the dead front and still slices correctly")
    func reclaimsTheFront() {
        let size: (Revision) -> Int = { _ in 1_000 }
        var window = LiveWindow(head: 0, allocator: allocator)
        var head: Revision = 0
        for _ in 0..<200 {
            window.append(batch((head + 1)...(head + 3), size: size), keepingAfter: head > 3 ? head - 3 : 0)
            head += 3
        }
        #expect(window.frames.readerIndex <= LiveWindow.reclaimThreshold, "the dead front was reclaimed")
        #expect(window.firstRevision == head - 5)
        #expect(readable(window.frames(after: head - 4)) == bytes((head - 3)...head, size: size))
    }

    @Test("a batch that is not the next revision restarts the window; older sessions no longer reach back")
    func restartsOnAGap() {
        var window = LiveWindow(head: 0, allocator: allocator)
        window.append(batch(1...2), keepingAfter: 0)
        window.append(batch(5...6), keepingAfter: 0)
        #expect(window.firstRevision == 5)
        #expect(readable(window.frames(after: 4)) == bytes(5...6))
        #expect(!window.reaches(back: 2))
    }
}
