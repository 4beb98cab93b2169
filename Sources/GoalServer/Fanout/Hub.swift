import Foundation
import GoalModel
import GoalStore
import GoalWire
import NIOCore
import NIOWebSocket

/// Fans durable batches out to every event loop: builds each batch's WebSocket frames ONCE into one buffer
/// (`ServerFrameEncoder`), groups the replies by shard, and hands both to each `LoopShard` with one task per loop.
///
/// Threading: `publish` runs on the engine queue (batches arrive in revision order, so every loop sees them in
/// order); the other methods may be called from anywhere. `Sendable`: it holds immutable shard references.
/// Lifetime: the daemon's.
final class Hub: Sendable {
    let shards: [LoopShard]
    private let shardByLoop: [ObjectIdentifier: Int]
    private let allocator = ByteBufferAllocator()
    /// permessage-deflate for sessions that negotiated it; nil when the daemon has it off.
    let compression: ChangesetCompression?
    /// How many live sessions take each optional frame variant.
    let demand: VariantDemand

    init(
        eventLoops: [any EventLoop],
        head: Revision,
        headDigest: Digest,
        coalescePause: TimeAmount,
        gate: (any FanoutSliceGate)? = nil,
        compression: ChangesetCompression? = nil,
        metrics: ServerMetrics
    ) {
        self.compression = compression
        let demand = VariantDemand()
        self.demand = demand
        var shards: [LoopShard] = []
        var byLoop: [ObjectIdentifier: Int] = [:]
        for (index, loop) in eventLoops.enumerated() {
            shards.append(
                LoopShard(
                    index: index,
                    eventLoop: loop,
                    head: head,
                    headDigest: headDigest,
                    maxPause: coalescePause,
                    gate: gate,
                    demand: demand,
                    metrics: metrics
                )
            )
            byLoop[ObjectIdentifier(loop)] = index
        }
        self.shards = shards
        self.shardByLoop = byLoop
    }

    /// The shard of the loop a channel runs on.
    func shard(for loop: any EventLoop) -> LoopShard {
        shards[shardByLoop[ObjectIdentifier(loop)]!]
    }

    /// Sends a durable batch to every loop that has something to do with it.
    func publish(_ batch: ClosedBatch) {
        let commits = batch.storage.commits
        let (frames, ends) = ServerFrameEncoder.textFrames(commits.map(\.frame), allocator: allocator)
        var replies: [Int: [Reply]] = [:]
        for reply in batch.replies {
            if let direct = reply.direct {  // an HTTP API request: answered now, durable
                direct.deliver(reply.message, batch.stateAfter)
                continue
            }
            replies[reply.address.shard, default: []].append(
                Reply(
                    session: reply.address.session,
                    frame: ServerFrameEncoder.textFrame(reply.message.encoded(), allocator: allocator),
                    after: reply.after
                )
            )
        }
        let delivery = DeliveryBatch(
            frames: frames,
            firstRevision: commits.first?.revision ?? 0,
            frameEnds: ends,
            variants: BatchVariants.attach(
                to: commits,
                demand: demand,
                compression: compression,
                allocator: allocator
            ),
            head: batch.stateAfter.revision,
            headDigest: batch.digestAfter,
            replies: replies,
            durableAt: .now()
        )
        for shard in shards where delivery.hasFrames || replies[shard.index] != nil {
            shard.eventLoop.execute { shard.deliver(delivery) }
        }
    }

    /// Closes a session that another session with the same client instance replaced (4409).
    func replace(_ address: ReplyAddress) {
        let shard = shards[address.shard]
        shard.eventLoop.execute {
            shard.close(address.session, .sessionReplaced, "a newer session with the same client_instance took over")
        }
    }

    /// Closes every session of revoked tokens (4403).
    func revoke(_ tokens: [StoredToken]) {
        let ids = Set(tokens.map(\.id))
        guard !ids.isEmpty else { return }
        for shard in shards {
            shard.eventLoop.execute {
                shard.closeSessions(
                    where: { session in session.registration.map { ids.contains($0.token.id) } ?? false },
                    .tokenRevoked,
                    "your token was revoked; ask an admin for a new one"
                )
            }
        }
    }

    /// Closes every session with an error and waits until each loop has sent it.
    func closeAll(_ code: WireErrorCode, _ message: String) async {
        await withTaskGroup(of: Void.self) { group in
            for shard in shards {
                group.addTask {
                    // submit fails only on a loop that has shut down, and with it its sessions: none is left to close.
                    try? await shard.eventLoop.submit {
                        shard.closeSessions(where: { _ in true }, code, message)
                    }.get()
                }
            }
        }
    }

    /// Sessions on every loop (for /healthz), read on each loop.
    func sessionCount() async -> Int {
        var total = 0
        for shard in shards {
            // submit fails only on a loop that has shut down: it holds no session, so it counts 0.
            total += (try? await shard.eventLoop.submit { shard.sessionCount }.get()) ?? 0
        }
        return total
    }
}
