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
    /// Advances the catch-up as far as the socket allows (`SessionStream.nextStep`). Called after welcome, after
    /// each page or snapshot arrives, and whenever the channel becomes writable again.
    func pumpCatchUp() {
        guard let context, !isClosing else { return }
        while let step = stream?.nextStep(writable: context.channel.isWritable, loopHead: shard.head) {
            switch step {
            case .wait:
                return
            case .write(let writes):
                for write in writes { perform(write) }
                if stream?.isLive ?? true {
                    flushIfNeeded()
                    return
                }
            case .readPage(let after, let upTo):
                readBacklogPage(after: after, upTo: upTo, context: context)
                return
            }
        }
    }

    private func readBacklogPage(after: Revision, upTo: Revision, context: ChannelHandlerContext) {
        let storage = core.storage
        let limit = core.limits.backlogPageSize
        let allocator = context.channel.allocator
        core.threadPool.runIfActive(eventLoop: context.eventLoop) { () throws -> (ByteBuffer, Revision?) in
            let frames = try storage.backlog(after: after, upTo: upTo, limit: limit)
            var buffer = allocator.buffer(capacity: frames.reduce(0) { $0 + $1.bytes.count + 10 })
            for frame in frames { ServerFrameEncoder.write(opcode: .text, payload: frame.bytes, into: &buffer) }
            return (buffer, frames.last?.revision)
        }.assumeIsolated().whenComplete { result in
            guard !self.isClosing, let context = self.context, self.stream != nil else { return }
            switch result {
            case .success((let buffer, let last)):
                if case .nothingAfter(let sent) = self.stream?.pageRead(last: last) {
                    self.fail(.resync, "the log has no changesets after \(sent); reconnect to resynchronize")
                    return
                }
                self.writeCatchUp(buffer, context: context)
                self.pumpCatchUp()
                self.flushIfNeeded()
            case .failure(let error):
                if let error = error as? StorageError, error.code == .backlogPruned {
                    self.fail(
                        .resync,
                        "the changesets after \(after) were pruned while you caught up; reconnect for a snapshot"
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
        core.snapshots.frames(of: core.engine.durableView, epoch: core.epoch, on: context.eventLoop)
            .assumeIsolated().whenComplete { result in
                guard !self.isClosing else { return }
                switch result {
                case .success(let snapshot):
                    self.stream?.snapshotArrived(revision: snapshot.revision, frames: snapshot.frames)
                    self.pumpCatchUp()
                    self.flushIfNeeded()
                case .failure(let error):
                    self.logger.error("snapshot build failed", metadata: ["goal.error": "\(error)"])
                    self.fail(.internalError, "the server could not build a snapshot; reconnect")
                }
            }
    }
}
