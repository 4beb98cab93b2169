import GoalTestSlots
import NIOCore
import Testing

@testable import GoalDeflate

/// One message deflated and inflated on its own: round trips, the RFC 7692 §7.2.3.1 example, limits and bad data.
@Suite("permessage-deflate: one message each way", .slotted)
struct MessageCodecTests {
    private let allocator = ByteBufferAllocator()

    private func roundTrip(_ bytes: [UInt8], deflater: MessageDeflater, inflater: MessageInflater) throws -> [UInt8] {
        let compressed = try deflater.compress(bytes, allocator: allocator)
        let inflated = try inflater.inflate(compressed, limit: 1 << 20, allocator: allocator)
        return Array(inflated.readableBytesView)
    }

    @Test("round trips, and each output stands alone: the same input gives the same bytes every time")
    func roundTrips() throws {
        let deflater = try MessageDeflater()
        let inflater = try MessageInflater()
        let frame = Array(
            #"{"type":"changeset","revision":4,"changes":[{"by":"3f2c9a1e-7b4d-4c1a-9e8f-0a1b2c3d4e5f","rev":3},{"by":"3f2c9a1e-7b4d-4c1a-9e8f-0a1b2c3d4e5f","rev":3}]}"#
                .utf8
        )
        let first = try deflater.compress(frame, allocator: allocator)
        let second = try deflater.compress(frame, allocator: allocator)
        #expect(first == second)  // no context taken over
        #expect(first.readableBytes < frame.count)
        var random = SystemRandomNumberGenerator()
        for size in [0, 1, 125, 4096, 70_000] {
            let bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &random) }
            #expect(try roundTrip(bytes, deflater: deflater, inflater: inflater) == bytes)
        }
        #expect(try roundTrip(frame, deflater: deflater, inflater: inflater) == frame)
    }

    @Test("RFC 7692 §7.2.3.1: the compressed \"Hello\" inflates, and so does a block with BFINAL set (§7.2.3.3)")
    func rfcExamples() throws {
        let inflater = try MessageInflater()
        let hello = allocator.buffer(bytes: [0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00])
        #expect(String(buffer: try inflater.inflate(hello, limit: 100, allocator: allocator)) == "Hello")
        // §7.2.3.4 no compression: "Hello" in a stored block (BFINAL=0), then the same with BFINAL=1.
        let stored = allocator.buffer(bytes: [0x00, 0x05, 0x00, 0xFA, 0xFF, 0x48, 0x65, 0x6C, 0x6C, 0x6F, 0x00])
        #expect(String(buffer: try inflater.inflate(stored, limit: 100, allocator: allocator)) == "Hello")
        let final = allocator.buffer(bytes: [0xF3, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00])
        #expect(String(buffer: try inflater.inflate(final, limit: 100, allocator: allocator)) == "Hello")
    }

    @Test("a message that inflates past the limit is refused; exactly the limit passes")
    func limit() throws {
        let deflater = try MessageDeflater()
        let inflater = try MessageInflater()
        let zeros = [UInt8](repeating: 0, count: 100_000)  // about 100 compressed bytes: a small bomb
        let compressed = try deflater.compress(zeros, allocator: allocator)
        #expect(compressed.readableBytes < 1_000)
        #expect(throws: PerMessageDeflateError.messageTooLarge(limit: 99_999)) {
            try inflater.inflate(compressed, limit: 99_999, allocator: allocator)
        }
        #expect(try inflater.inflate(compressed, limit: 100_000, allocator: allocator).readableBytes == 100_000)
    }

    @Test("corrupt data is refused, and the inflater reads the next message afterwards")
    func corrupt() throws {
        let deflater = try MessageDeflater()
        let inflater = try MessageInflater()
        let garbage = allocator.buffer(bytes: [0xFF, 0xFF, 0xFF, 0xFF, 0x13])
        #expect(throws: PerMessageDeflateError.corruptData) {
            try inflater.inflate(garbage, limit: 1_000, allocator: allocator)
        }
        #expect(try roundTrip(Array("after".utf8), deflater: deflater, inflater: inflater) == Array("after".utf8))
    }
}
