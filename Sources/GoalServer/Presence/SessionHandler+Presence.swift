import CoreMetrics
import GoalModel
import GoalStore
import GoalWire
import NIOCore

/// One session's part in the league's presence: its member (when listed), its announcement bucket and the
/// announcement waiting for a token, and the events it could not be written yet.
///
/// Value type, confined to the session's event loop.
struct SessionPresence {
    let subscription: PresenceSubscription
    var member: PresenceMember
    var bucket: TokenBucket
    /// The latest announcement past the bucket, applied when it has a token again (coalesced: latest wins).
    var pending: PresenceActivity?
    var timer: Scheduled<Void>?
    var backlog = PresenceBacklog()
    /// True while the member is in the registry.
    var joined = false
    /// True while the session counts among the registry's receivers.
    var receiving = false
}

/// Presence for one session (docs/PROTOCOL.md §4 "Presence"): joins at welcome, announcements (rate-limited and
/// coalesced, never an error for a few extras), the list and its changes written beside the changeset stream
/// (only when nothing of the stream waits, so presence never delays a changeset), and the leave when the session
/// closes, fails or times out.
extension SessionHandler {
    /// Right after `welcome`: lists the session (unless it observes) and sends `presence_state` (when it asked).
    func openPresence(_ hello: ClientMessage.Hello, identity: SessionIdentity) {
        let configuration = core.limits.presence
        var presence = SessionPresence(
            subscription: hello.presence,
            member: PresenceMember(
                id: "\(core.nodeID)/\(id)",
                name: identity.token.name,
                clientInstance: identity.instance,
                node: core.nodeID,
                activity: .online,
                since: .now()
            ),
            bucket: TokenBucket(
                rate: configuration.announcementsPerSecond,
                capacity: configuration.announcementBurst,
                now: .now()
            )
        )
        if presence.subscription.receives {
            presence.receiving = true
            core.presence.addReceiver()  // before the list is read below
        }
        if presence.subscription.isListed {
            presence.joined = true
            core.presence.set(presence.member)
        }
        self.presence = presence
        guard presence.subscription.receives, let context else { return }
        // Written as catch-up (PROTOCOL.md §3): a long list never counts toward the slow-consumer bound.
        let list = ServerFrameEncoder.textFrame(
            ServerMessage.presenceState(core.presence.members()).encoded(),
            allocator: context.channel.allocator
        )
        if queue.isEmpty {
            writeCatchUp(list, context: context)
        } else {
            enqueue(list)  // behind the welcome that waits in the queue
        }
        flushIfNeeded()
    }

    /// A `presence` message: applied now when the bucket has a token, else kept (the latest wins) until it has.
    func receivePresence(_ activity: PresenceActivity) {
        guard var presence, presence.subscription.isListed, let context else { return }
        defer { self.presence = presence }
        if presence.bucket.take(now: .now()) {
            presence.pending = nil
            apply(activity, to: &presence)
            return
        }
        core.metrics.presenceCoalesced.increment()
        presence.pending = activity
        guard presence.timer == nil else { return }
        let wait = TimeAmount.milliseconds(Int64(max(1, presence.bucket.millisecondsUntilNextToken())))
        presence.timer = context.eventLoop.assumeIsolated().scheduleTask(in: wait) { [self] in
            guard var presence = self.presence else { return }
            presence.timer = nil
            if let pending = presence.pending, presence.joined {
                presence.pending = nil
                _ = presence.bucket.take(now: .now())
                apply(pending, to: &presence)
            }
            self.presence = presence
        }
    }

    private func apply(_ activity: PresenceActivity, to presence: inout SessionPresence) {
        guard presence.joined, presence.member.activity != activity else { return }
        presence.member.activity = activity
        presence.member.since = .now()
        core.presence.set(presence.member)
    }

    /// The session is closing (graceful close, error, heartbeat timeout) or gone: its member leaves now. Idempotent.
    func leavePresence() {
        guard var presence else { return }
        presence.timer?.cancel()
        presence.timer = nil
        presence.pending = nil
        presence.backlog = PresenceBacklog()
        if presence.joined {
            presence.joined = false
            core.presence.leave(presence.member.id)
        }
        if presence.receiving {
            presence.receiving = false
            core.presence.removeReceiver()
        }
        self.presence = presence
    }

    /// Events from the shard: written now when nothing waits before them, else kept (coalesced per member).
    func offerPresence(_ events: [PresenceEvent]) {
        guard var presence, presence.subscription.receives, !isClosing, let context else { return }
        for event in events { presence.backlog.add(event) }
        self.presence = presence
        guard queue.isEmpty, context.channel.isWritable else { return }
        writePresenceBacklog(context)
        flushIfNeeded()
    }

    /// Writes the waiting presence events when the stream's own queue is empty (called when the socket drains).
    func drainPresence() {
        guard let context, queue.isEmpty, context.channel.isWritable, presence?.backlog.isEmpty == false else {
            return
        }
        writePresenceBacklog(context)
    }

    private func writePresenceBacklog(_ context: ChannelHandlerContext) {
        guard let events = presence?.backlog.take(), !events.isEmpty else { return }
        for event in events {
            let frame = ServerFrameEncoder.textFrame(
                ServerMessage.presence(event).encoded(),
                allocator: context.channel.allocator
            )
            context.write(wrapOutboundOut(frame), promise: nil)
        }
        needsFlush = true
    }
}
