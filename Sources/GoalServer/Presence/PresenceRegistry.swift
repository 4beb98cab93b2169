import GoalModel
import GoalStore
import GoalWire
import Logging
import NIOConcurrencyHelpers
import NIOCore
import Synchronization

/// Who is present in the league: this node's sessions (joined, updated and left by their `SessionHandler`s) and,
/// with a `PresenceBus`, the other nodes' (their events, and their full lists every `refreshMilliseconds`; a node
/// not heard from for `nodeTimeoutMilliseconds` is dropped with its members). Every change becomes a
/// `PresenceEvent` handed to the hub, which writes it to the sessions that asked for presence: never through the
/// engine, the changeset log or the digest chain.
///
/// Threading: `Sendable`; the state is behind a lock, and events are handed to the hub inside it, so every loop
/// sees them in the order they happened. Lifetime: the daemon's; `run()` is one task, `stop()` says goodbye, and
/// the goodbye is the last payload this node publishes: a refresh or an event already under way is sent before
/// it, and none after it (the other nodes would otherwise list the stopped node's members again until they time
/// it out).
final class PresenceRegistry: Sendable {
    private struct RemoteNode {
        var members: [String: PresenceMember] = [:]
        var lastSeen: NIODeadline
        /// The parts of the newest full list being received.
        var generation: UInt64 = 0
        var parts: [Int: [PresenceMember]] = [:]
    }

    private struct State {
        var local: [String: PresenceMember] = [:]
        var remote: [String: RemoteNode] = [:]
        var generation: UInt64 = 0
        /// Set by `stop()`: nothing more is published but the goodbye.
        var stopped = false
        /// Payloads decided under the lock and not yet handed to the bus (the goodbye waits for them).
        var publishing = 0
    }

    let node: String
    let configuration: PresenceConfiguration
    private let hub: Hub
    private let bus: (any PresenceBus)?
    /// NIO's lock (pthreads), not `Synchronization.Mutex`: the thread sanitizer sees pthread locks, while the
    /// standard library's Mutex is not instrumented and its critical sections were reported as races.
    private let state = NIOLockedValueBox(State())
    /// Open sessions that receive presence messages: with none (old clients only, a load test), changes are not
    /// handed to the loops at all, so a connection storm costs no visit of every session per join.
    private let receivers = Atomic<Int>(0)
    private let logger: Logger
    /// The clock that dates what is heard from other nodes and judges their silence (tests move it by hand).
    private let now: @Sendable () -> NIODeadline

    init(
        node: String,
        hub: Hub,
        configuration: PresenceConfiguration,
        bus: (any PresenceBus)?,
        logger: Logger,
        now: @escaping @Sendable () -> NIODeadline = { .now() }
    ) {
        self.node = node
        self.hub = hub
        self.configuration = configuration
        self.bus = bus
        self.logger = logger
        self.now = now
    }

    /// Whether presence travels between nodes (a bus was given).
    var hasBus: Bool { bus != nil }

    /// Everyone present, by name then id.
    func members() -> [PresenceMember] {
        let all = state.withLockedValue { state in
            Array(state.local.values) + state.remote.values.flatMap { $0.members.values }
        }
        return all.sorted { ($0.name, $0.id) < ($1.name, $1.id) }
    }

    /// A session of this node joined or changed its activity.
    func set(_ member: PresenceMember) {
        let publishes = state.withLockedValue { state in
            let kind: PresenceEvent.Kind = state.local[member.id] == nil ? .join : .update
            state.local[member.id] = member
            emit([PresenceEvent(kind, member)])
            return bus != nil && Self.beginPublishing(&state)
        }
        guard publishes, let bus else { return }
        bus.publishPresence(PresenceRelayMessage.event(node: node, PresenceEvent(.update, member)).encoded())
        endPublishing()
    }

    /// A session of this node left. Idempotent.
    func leave(_ id: String) {
        let left = state.withLockedValue { state -> PresenceMember? in
            guard let member = state.local.removeValue(forKey: id) else { return nil }
            emit([PresenceEvent(.leave, member)])
            return bus != nil && Self.beginPublishing(&state) ? member : nil
        }
        guard let left, let bus else { return }
        bus.publishPresence(PresenceRelayMessage.event(node: node, PresenceEvent(.leave, left)).encoded())
        endPublishing()
    }

    /// A session that receives presence messages opened (before it reads `members()` for its `presence_state`,
    /// so that a change skipped while there were no receivers is in that list).
    func addReceiver() {
        receivers.add(1, ordering: .sequentiallyConsistent)
    }

    /// A session that received presence messages closed. Called once per `addReceiver()`.
    func removeReceiver() {
        receivers.subtract(1, ordering: .sequentiallyConsistent)
    }

    /// Must be called inside the lock (a session's `members()` then sees the change it was not handed).
    private func emit(_ events: [PresenceEvent]) {
        guard !events.isEmpty, receivers.load(ordering: .sequentiallyConsistent) > 0 else { return }
        hub.publishPresence(events)
    }

    // MARK: - Other nodes

    /// Listens on the bus, asks every node for its list, then sends this node's list and drops silent nodes every
    /// `refreshMilliseconds` until cancelled. Returns at once without a bus.
    func run() async {
        guard let bus else { return }
        bus.listenPresence { [self] payload in receive(payload) }
        while !Task.isCancelled {
            refresh()
            expire(now: now())
            try? await Task.sleep(for: .milliseconds(configuration.refreshMilliseconds))  // cancelled: loop ends
        }
    }

    /// Says goodbye (the other nodes drop this node's members at once) and stops listening. Nothing is published
    /// after the goodbye; what was under way when `stop()` was called (`run()`'s last refresh, which the daemon
    /// cancels without waiting for it, or an answer to another node's sync) is published before it. That wait is
    /// bounded (1 s): publishing never blocks, so it only waits for threads that are not scheduled.
    func stop() async {
        guard let bus else { return }
        state.withLockedValue { $0.stopped = true }
        let deadline = ContinuousClock.now + .seconds(1)
        while state.withLockedValue({ $0.publishing > 0 }), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(1))  // cancelled: the deadline still bounds the wait
        }
        bus.publishPresence(PresenceRelayMessage.bye(node: node).encoded())
        await bus.stopPresence()
    }

    /// Sends this node's full list (nothing once stopped).
    private func refresh() {
        guard let bus else { return }
        let list = state.withLockedValue { state -> (UInt64, [PresenceMember])? in
            guard Self.beginPublishing(&state) else { return nil }
            state.generation += 1
            return (state.generation, Array(state.local.values))
        }
        guard let (generation, members) = list else { return }
        for payload in PresenceRelayMessage.refreshPayloads(
            node: node,
            generation: generation,
            members: members,
            maxBytes: configuration.maxRelayPayloadBytes
        ) {
            bus.publishPresence(payload)
        }
        endPublishing()
    }

    /// Inside the lock: true (and counted until `endPublishing()`) when a payload may still be published.
    private static func beginPublishing(_ state: inout State) -> Bool {
        guard !state.stopped else { return false }
        state.publishing += 1
        return true
    }

    /// A payload counted by `beginPublishing` was handed to the bus.
    private func endPublishing() {
        state.withLockedValue { $0.publishing -= 1 }
    }

    /// One payload from the bus (nil: the bus (re)connected, so ask everyone for their lists).
    func receive(_ payload: String?) {
        guard let payload else {
            guard let bus, state.withLockedValue({ Self.beginPublishing(&$0) }) else { return }
            bus.publishPresence(PresenceRelayMessage.sync(node: node).encoded())
            endPublishing()
            return
        }
        let message: PresenceRelayMessage
        do {
            message = try PresenceRelayMessage.decode(payload)
        } catch {
            logger.debug("ignoring an unreadable presence payload", metadata: ["goal.error": "\(error)"])
            return
        }
        guard message.node != node else { return }
        if case .sync = message {
            refresh()
            return
        }
        let now = self.now()
        state.withLockedValue { state in
            let sender = message.node
            if case .bye = message {
                if let gone = state.remote.removeValue(forKey: sender) {
                    emit(gone.members.values.map { PresenceEvent(.leave, $0) })
                }
                return
            }
            var remote = state.remote[sender] ?? RemoteNode(lastSeen: now)
            remote.lastSeen = now
            var events: [PresenceEvent] = []
            switch message {
            case .event(_, let event):
                if event.kind == .leave {
                    if let member = remote.members.removeValue(forKey: event.member.id) {
                        events.append(PresenceEvent(.leave, member))
                    }
                } else if remote.members[event.member.id] != event.member {
                    let kind: PresenceEvent.Kind = remote.members[event.member.id] == nil ? .join : .update
                    remote.members[event.member.id] = event.member
                    events.append(PresenceEvent(kind, event.member))
                }
            case .refresh(_, let generation, let part, let parts, let members):
                if generation != remote.generation {
                    remote.generation = generation
                    remote.parts = [:]
                }
                remote.parts[part] = members
                if remote.parts.count >= parts {
                    let full = Dictionary(
                        remote.parts.values.flatMap { $0 }.map { ($0.id, $0) },
                        uniquingKeysWith: { _, last in last }
                    )
                    remote.parts = [:]
                    events = Self.difference(from: remote.members, to: full)
                    remote.members = full
                }
            case .sync, .bye:
                break
            }
            state.remote[sender] = remote
            emit(events)
        }
    }

    /// Drops the nodes not heard from for `nodeTimeoutMilliseconds`, with their members.
    func expire(now: NIODeadline) {
        let timeout = TimeAmount.milliseconds(Int64(configuration.nodeTimeoutMilliseconds))
        state.withLockedValue { state in
            for (name, remote) in state.remote where now - remote.lastSeen > timeout {
                state.remote[name] = nil
                logger.info("a node's presence expired", metadata: ["goal.node": "\(name)"])
                emit(remote.members.values.map { PresenceEvent(.leave, $0) })
            }
        }
    }

    /// The events that turn `old` into `new`.
    static func difference(
        from old: [String: PresenceMember],
        to new: [String: PresenceMember]
    ) -> [PresenceEvent] {
        var events: [PresenceEvent] = []
        for (id, member) in old where new[id] == nil { events.append(PresenceEvent(.leave, member)) }
        for (id, member) in new {
            if let before = old[id] {
                if before != member { events.append(PresenceEvent(.update, member)) }
            } else {
                events.append(PresenceEvent(.join, member))
            }
        }
        return events
    }
}
