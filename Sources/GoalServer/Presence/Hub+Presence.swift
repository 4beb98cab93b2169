import GoalModel
import NIOCore

/// Presence beside the changesets: one task per loop per change, never through the engine, the batch or a round.
extension Hub {
    /// Hands presence events to every loop (in the caller's order); each loop offers them to its sessions that
    /// asked for presence.
    func publishPresence(_ events: [PresenceEvent]) {
        for shard in shards {
            shard.eventLoop.execute { shard.deliverPresence(events) }
        }
    }
}

extension LoopShard {
    /// Offers presence events to the sessions of this loop. Must run on `eventLoop`.
    func deliverPresence(_ events: [PresenceEvent]) {
        for session in box.value.order {
            session.offerPresence(events)
        }
    }
}
