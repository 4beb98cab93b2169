import GoalModel
import GoalStore
import GoalWire
import Logging
import NIOCore

/// One session's part in the league's presence: its member (when listed), its announcement bucket and the
/// announcement waiting for a token, and the events it could not write yet.
///
/// Value type, owned by `SessionMachine`.
struct SessionPresence {
    let subscription: PresenceSubscription
    var member: PresenceMember
    var bucket: TokenBucket
    /// The latest announcement past the bucket, applied when it has a token again (coalesced: latest wins).
    var pending: PresenceActivity?
    /// True while the handler holds a timer for `presenceTimerFired`.
    var timerScheduled = false
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
extension SessionMachine {
    /// Right after `welcome`: lists the session (unless it observes) and asks for the list (when it asked).
    mutating func openPresence(
        _ hello: ClientMessage.Hello,
        identity: SessionIdentity,
        now: SessionNow
    ) -> [SessionAction] {
        let configuration = limits.presence
        var presence = SessionPresence(
            subscription: hello.presence,
            member: PresenceMember(
                id: "\(self.configuration.nodeID)/\(self.configuration.sessionID)",
                name: identity.token.name,
                clientInstance: identity.instance,
                node: self.configuration.nodeID,
                activity: .online,
                since: now.wall
            ),
            bucket: TokenBucket(
                rate: configuration.announcementsPerSecond,
                capacity: configuration.announcementBurst,
                now: now.uptime
            )
        )
        var actions: [SessionAction] = []
        if presence.subscription.receives {
            presence.receiving = true
            actions.append(.presence(.addReceiver))  // before the list is read below
        }
        if presence.subscription.isListed {
            presence.joined = true
            actions.append(.presence(.set(presence.member)))
        }
        self.presence = presence
        if presence.subscription.receives { actions.append(.readPresenceMembers) }
        return actions
    }

    /// The registry's members, read for `presence_state`.
    mutating func presenceState(_ members: [PresenceMember]) -> [SessionAction] {
        let list = ServerFrameEncoder.textFrame(ServerMessage.presenceState(members).encoded(), allocator: allocator)
        // Written as catch-up (PROTOCOL.md §3): a long list never counts toward the slow-consumer bound; behind the
        // welcome when that waits in the queue.
        return [outbound.queue.isEmpty ? .sendCatchUp(list) : .send(list), .flush]
    }

    /// A `presence` message: applied now when the bucket has a token, else kept (the latest wins) until it has.
    mutating func receivePresence(_ activity: PresenceActivity, now: SessionNow) -> [SessionAction] {
        guard var presence, presence.subscription.isListed else { return [] }
        defer { self.presence = presence }
        if presence.bucket.take(now: now.uptime) {
            presence.pending = nil
            return apply(activity, to: &presence, now: now)
        }
        presence.pending = activity
        guard !presence.timerScheduled else { return [.count(.presenceCoalesced)] }
        presence.timerScheduled = true
        let wait = TimeAmount.milliseconds(Int64(max(1, presence.bucket.millisecondsUntilNextToken())))
        return [.count(.presenceCoalesced), .schedulePresenceTimer(wait)]
    }

    /// The announcement bucket has a token again: the kept announcement is applied.
    mutating func presenceTimerFired(now: SessionNow) -> [SessionAction] {
        guard var presence else { return [] }
        defer { self.presence = presence }
        presence.timerScheduled = false
        guard let pending = presence.pending, presence.joined else { return [] }
        presence.pending = nil
        _ = presence.bucket.take(now: now.uptime)
        return apply(pending, to: &presence, now: now)
    }

    private func apply(
        _ activity: PresenceActivity,
        to presence: inout SessionPresence,
        now: SessionNow
    ) -> [SessionAction] {
        guard presence.joined, presence.member.activity != activity else { return [] }
        presence.member.activity = activity
        presence.member.since = now.wall
        return [.presence(.set(presence.member))]
    }

    /// The session is closing (graceful close, error, heartbeat timeout) or gone: its member leaves now. Idempotent.
    mutating func leavePresence() -> [SessionAction] {
        guard var presence else { return [] }
        var actions: [SessionAction] = []
        if presence.timerScheduled { actions.append(.cancelPresenceTimer) }
        presence.timerScheduled = false
        presence.pending = nil
        presence.backlog = PresenceBacklog()
        if presence.joined {
            presence.joined = false
            actions.append(.presence(.leave(presence.member.id)))
        }
        if presence.receiving {
            presence.receiving = false
            actions.append(.presence(.removeReceiver))
        }
        self.presence = presence
        return actions
    }

    /// Events from the shard: written now when nothing waits before them and the socket is `writable`, else kept
    /// (coalesced per member).
    mutating func offerPresence(_ events: [PresenceEvent], writable: Bool) -> [SessionAction] {
        guard var presence, presence.subscription.receives, !isClosing else { return [] }
        for event in events { presence.backlog.add(event) }
        self.presence = presence
        guard outbound.queue.isEmpty, writable else { return [] }
        return writePresenceBacklog() + [.flush]
    }

    /// Writes the waiting presence events when the stream's own queue is empty and the socket `writable` (called
    /// when the socket drains).
    mutating func drainPresence(writable: Bool) -> [SessionAction] {
        guard outbound.queue.isEmpty, writable, presence?.backlog.isEmpty == false else { return [] }
        return writePresenceBacklog()
    }

    private mutating func writePresenceBacklog() -> [SessionAction] {
        guard let events = presence?.backlog.take(), !events.isEmpty else { return [] }
        let frames = events.map {
            ServerFrameEncoder.textFrame(ServerMessage.presence($0).encoded(), allocator: allocator)
        }
        outbound.wroteUnbudgeted()
        return [.writeUnbudgeted(frames)]
    }
}
