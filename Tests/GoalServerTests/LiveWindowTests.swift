import GoalModel
import NIOCore
import Testing

@testable import GoalServer

@Suite("a loop's live window: the frames after its floor, then each new batch")
struct LiveWindowTests {
    private let allocator = ByteBufferAllocator()

    /// A batch of revisions `revisions`, each frame `revision` bytes of the revision's low byte.
    private func batch(_ revisions: ClosedRange<Revision>) -> DeliveryBatch {
        var frames = allocator.buffer(capacity: 64)
        var ends: [Int] = []
        for revision in revisions {
            frames.writeRepeatingByte(UInt8(truncatingIfNeeded: revision), count: Int(revision))
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

    /// The revisions whose frames `buffer` holds, read back from the bytes.
    private func revisions(in buffer: ByteBuffer?) -> [Revision] {
        guard var buffer else { return [] }
        var found: [Revision] = []
        while let byte = buffer.getInteger(at: buffer.readerIndex, as: UInt8.self) {
            let revision = Revision(byte)
            #expect(buffer.readBytes(length: Int(revision)) == Array(repeating: byte, count: Int(revision)))
            found.append(revision)
        }
        return found
    }

    @Test("keeps the frames after the floor and appends the batch; every slice reads back whole frames")
    func keepsAfterFloor() {
        let window = batch(1...3).window(keepingAfter: 1, adding: batch(4...5), allocator: allocator)
        #expect(window.firstRevision == 2)
        #expect(window.head == 5)
        #expect(revisions(in: window.frames) == [2, 3, 4, 5])
        for sent in Revision(1)...4 {
            #expect(window.reaches(back: sent))
            #expect(revisions(in: window.frames(after: sent)) == Array((sent + 1)...5))
        }
        #expect(window.frames(after: 5) == nil)
        #expect(!window.reaches(back: 0), "revision 1 is no longer in the window")
    }

    @Test("with nothing left after the floor the window is the batch itself; a batch without frames changes nothing")
    func startsAfreshAndIgnoresEmptyBatches() {
        let added = batch(4...5)
        let window = batch(1...3).window(keepingAfter: 3, adding: added, allocator: allocator)
        #expect(window.firstRevision == 4)
        #expect(revisions(in: window.frames) == [4, 5])
        let storage = { (buffer: ByteBuffer) in buffer.withUnsafeReadableBytes { UInt(bitPattern: $0.baseAddress) } }
        #expect(storage(window.frames) == storage(added.frames), "the batch's buffer, not a copy")

        let empty = DeliveryBatch(
            frames: ByteBuffer(),
            firstRevision: 0,
            frameEnds: [],
            head: 5,
            headDigest: .genesis,
            replies: [:],
            durableAt: .now()
        )
        let same = window.window(keepingAfter: 4, adding: empty, allocator: allocator)
        #expect(revisions(in: same.frames) == [4, 5])
        #expect(same.head == 5)
    }

    @Test("a floor below the window's first frame keeps the whole window")
    func floorBelowTheWindow() {
        let window = batch(3...4).window(keepingAfter: 1, adding: batch(5...5), allocator: allocator)
        #expect(window.firstRevision == 3)
        #expect(revisions(in: window.frames) == [3, 4, 5])
        #expect(revisions(in: window.frames(after: 2)) == [3, 4, 5])
    }
}
