import Foundation
import GoalModel
import GoalStore
import GoalTestSlots
import GoalWire
import Logging
import NIOCore
import NIOEmbedded
import NIOPosix
import NIOWebSocket
import Prometheus
import Synchronization
import Testing

@testable import GoalServer

/// The session handler on an `EmbeddedChannel` (issue 34 points 1 and 2): every path that can re-enter a session
/// from inside its own writes — a close raised by the slow-consumer bound inside a delivery, a flush that drains the
/// socket, a write error that closes the channel, a revocation, a shutdown, a replaced session, a presence leave, a
/// heartbeat timeout, a second batch, a history answer and a close arriving from inside a flush, a close while the
/// snapshot is being written. Each ran into "Fatal access conflict detected" (or wrote frames out of order) before
/// the session returned its writes and deferred what arrives inside them; none needs a socket or a clock.
@Suite("the session handler on EmbeddedChannel: nothing re-enters a session in the middle of a write", .slotted)
struct SessionHandlerEmbeddedTests {
    typealias Harness = SessionHarness

    private static func slowLimits() -> ServerLimits {
        var limits = ServerLimits()
        limits.sessionQueueBytes = 2_048
        return limits
    }

    @Test("a stalled reader's 4008, raised inside a delivery, closes the session once the delivery has ended")
    func slowConsumerInsideDelivery() throws {
        let harness = try Harness(limits: Self.slowLimits())
        harness.channel.isWritable = false  // the reader stopped: everything queues
        harness.deliver(count: 3, bytes: 1_000, replies: ["ack-1"])
        let text = try harness.written()
        #expect(text.contains("slow_consumer"), "\(text)")
        #expect(harness.session.isClosing)
        #expect(harness.queuedBytes == 0, "the dropped queue left the global count")
        #expect(!text.contains("ack-1"), "nothing after the close is written")
        try harness.finish()
    }

    @Test("a flush that drains the socket re-enters the session: the drain waits for the write, frames stay whole")
    func writabilityInsideFlush() throws {
        let harness = try Harness()
        harness.channel.isWritable = false
        harness.deliver(count: 2, bytes: 40_000)  // queued: pieces of a record each once written
        harness.deliver(count: 2, bytes: 100)
        harness.channel.embeddedEventLoop.run()
        let channel = harness.channel
        // Each flush makes the channel writable again from inside (as NIO does when the socket drains).
        func rearm() {
            harness.wire.onFlush = { context in
                channel.isWritable = true
                context.fireChannelWritabilityChanged()
                rearm()
            }
        }
        rearm()
        channel.isWritable = true
        channel.pipeline.fireChannelWritabilityChanged()
        harness.wire.onFlush = nil
        let text = try harness.written()
        #expect(harness.revisions(in: text) == [1, 2, 3, 4])
        #expect(text.count == 2 * 40_000 + 2 * 100, "every byte once, in order")
        #expect(!harness.session.isClosing)
        try harness.finish()
    }

    @Test("a write error that closes the channel from inside a flush: the session tears down after its write")
    func closeInsideFlush() throws {
        let harness = try Harness()
        harness.wire.onFlush = { context in
            context.fireErrorCaught(IOError(errnoCode: ECONNRESET, reason: "writev"))
            context.close(promise: nil)
        }
        harness.deliver(count: 3, bytes: 10_000)
        harness.channel.embeddedEventLoop.run()
        #expect(harness.session.isClosing)
        #expect(!harness.isRegistered, "torn down: unregistered from its shard")
        #expect(harness.queuedBytes == 0)
        try harness.finish()
    }

    /// Runs `arrive` from inside the session's first flush during a delivery and returns what was written.
    private func arriving(
        _ harness: Harness,
        _ arrive: @escaping (Harness) -> Void
    ) throws -> String {
        harness.wire.onFlush = { _ in arrive(harness) }
        harness.deliver(count: 3, bytes: 8_000, replies: ["ack-1"])
        harness.channel.embeddedEventLoop.run()
        return try harness.written()
    }

    @Test(
        "revocation, shutdown and a replaced session, arriving inside a fan-out write: the close follows it",
        arguments: [WireErrorCode.tokenRevoked, .shuttingDown, .sessionReplaced]
    )
    func closeArrivesInsideARound(code: WireErrorCode) throws {
        let harness = try Harness()
        let text = try arriving(harness) { harness in
            if code == .sessionReplaced {
                harness.shard.close(harness.session.id, code, "replaced")
            } else {
                harness.shard.closeSessions(where: { _ in true }, code, "closing")
            }
        }
        #expect(text.contains(code.rawValue), "\(text.suffix(200))")
        #expect(harness.session.isClosing)
        try harness.finish()
    }

    @Test("a presence leave and a heartbeat timeout inside a fan-out write")
    func presenceAndHeartbeatInsideARound() throws {
        var limits = ServerLimits()
        limits.idleTimeoutMilliseconds = 1_000
        limits.pingIntervalMilliseconds = 500
        let harness = try Harness(limits: limits)
        let text = try arriving(harness) { harness in
            harness.feed { $0.leavePresence() }
            // The heartbeat's timer fires from inside the write: nothing was read for more than the idle timeout.
            harness.channel.embeddedEventLoop.advanceTime(by: .seconds(2))
        }
        #expect(text.contains(WireErrorCode.heartbeatTimeout.rawValue), "\(text.suffix(200))")
        #expect(harness.revisions(in: text) == [1, 2, 3], "the delivery completed before the close")
        try harness.finish()
    }

    @Test("a node's catch-up batch and a history answer arriving inside a fan-out write are written after it")
    func batchAndHistoryInsideARound() throws {
        let harness = try Harness()
        let text = try arriving(harness) { harness in
            harness.deliver(count: 2, bytes: 100)
            let busy = HistoryAnswer(entity: .player(PlayerID()), result: .refused(.busy, message: "busy-h1"))
            harness.feed { $0.sendNow(.history(busy)) }
        }
        #expect(harness.revisions(in: text) == [1, 2, 3, 4, 5])
        #expect(text.contains("ack-1"))
        #expect(text.contains("busy-h1"))
        #expect(!harness.session.isClosing)
        try harness.finish()
    }

    @Test("a session closed while its snapshot is being written: the close follows the frame being written")
    func closeWhileSnapshotIsWritten() throws {
        let harness = try Harness(mode: .snapshot)
        let frames = (1...4).map { ByteBuffer(string: "<s\($0)>" + String(repeating: "s", count: 6_000)) }
        harness.wire.onFlush = { _ in harness.session.fail(.internalError, "closed mid-snapshot") }
        harness.feed { $0.snapshotBuilt(.success((revision: 0, frames: frames))) }
        harness.channel.embeddedEventLoop.run()
        let text = try harness.written()
        let closedAt = try #require(text.range(of: "closed mid-snapshot"))
        #expect(text[..<closedAt.lowerBound].contains("<s1>"))
        #expect(!text[closedAt.upperBound...].contains("<s"), "no snapshot frame after the close")
        #expect(harness.session.isClosing)
        try harness.finish()
    }
}
