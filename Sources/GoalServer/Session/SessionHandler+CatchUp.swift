import Foundation
import GoalModel
import GoalStore
import GoalWire
import Logging
import NIOCore
import NIOPosix
import NIOWebSocket

/// Catching up: the snapshot's frames, then backlog pages (sent, target] read off the event loop, written only
/// while the socket is writable (they do not count toward the slow-consumer bound), then `caught_up` and live.
extension SessionHandler {
    /// Advances the catch-up as far as the socket allows. Called after welcome, after each page or snapshot
    /// arrives, and whenever the channel becomes writable again.
    func pumpCatchUp() {
        guard case .catchingUp(let mode) = streamState, let context, !isClosing else { return }
        while context.channel.isWritable, let frame = snapshotFrames.popFirst() {
            writeCatchUp(frame, context: context)
        }
        guard snapshotFrames.isEmpty, !awaitingSnapshot, !backlogReadInFlight, context.channel.isWritable else {
            return
        }
        // Live only at the loop's head: the shard's window is sure to reach back to it (see `LoopShard`).
        target = max(target, shard.head)
        if sent < target {
            readBacklogPage(context: context)
            return
        }
        if mode == .backlog {
            enqueue(
                ServerFrameEncoder.textFrame(
                    ServerMessage.caughtUp(head: sent).encoded(),
                    allocator: context.channel.allocator
                )
            )
        }
        streamState = .live
        let replies = heldReplies
        heldReplies = []
        for reply in replies { enqueue(reply) }
        flushIfNeeded()
    }

    private func readBacklogPage(context: ChannelHandlerContext) {
        backlogReadInFlight = true
        let storage = core.storage
        let (after, upTo, limit) = (sent, target, core.limits.backlogPageSize)
        let allocator = context.channel.allocator
        core.threadPool.runIfActive(eventLoop: context.eventLoop) { () throws -> (ByteBuffer, Revision?) in
            let frames = try storage.backlog(after: after, upTo: upTo, limit: limit)
            var buffer = allocator.buffer(capacity: frames.reduce(0) { $0 + $1.bytes.count + 10 })
            for frame in frames { ServerFrameEncoder.write(opcode: .text, payload: frame.bytes, into: &buffer) }
            return (buffer, frames.last?.revision)
        }.assumeIsolated().whenComplete { result in
            self.backlogReadInFlight = false
            guard !self.isClosing, let context = self.context else { return }
            switch result {
            case .success((let buffer, let last)):
                guard let last, last > self.sent else {
                    self.fail(.resync, "the log has no changesets after \(self.sent); reconnect to resynchronize")
                    return
                }
                self.writeCatchUp(buffer, context: context)
                self.sent = last
                self.pumpCatchUp()
                self.flushIfNeeded()
            case .failure(let error):
                if let error = error as? StorageError, error.code == .backlogPruned {
                    self.fail(
                        .resync,
                        "the changesets after \(self.sent) were pruned while you caught up; reconnect for a snapshot"
                    )
                } else {
                    self.logger.error("backlog read failed", metadata: ["goal.error": "\(error)"])
                    self.fail(.internalError, "the server could not read its log; reconnect")
                }
            }
        }
    }

    /// Asks the cache for the durable snapshot and streams it once built.
    func requestSnapshot(context: ChannelHandlerContext) {
        awaitingSnapshot = true
        core.snapshots.frames(of: core.engine.durableView, epoch: core.epoch, on: context.eventLoop)
            .assumeIsolated().whenComplete { result in
                self.awaitingSnapshot = false
                guard !self.isClosing else { return }
                switch result {
                case .success(let snapshot):
                    self.sent = snapshot.revision
                    self.target = max(self.target, snapshot.revision)
                    self.snapshotFrames = snapshot.frames[...]
                    self.pumpCatchUp()
                    self.flushIfNeeded()
                case .failure(let error):
                    self.logger.error("snapshot build failed", metadata: ["goal.error": "\(error)"])
                    self.fail(.internalError, "the server could not build a snapshot; reconnect")
                }
            }
    }
}
