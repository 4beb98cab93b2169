import GoalModel

/// The presence events a session could not be written yet (its socket was not writable or changesets waited
/// before them), coalesced per member: the latest state of each member wins, a join followed by a leave cancels
/// out. Bounded by the number of members, whatever the rate of changes.
///
/// Value type, confined to its session's event loop.
struct PresenceBacklog {
    private var order: [String] = []
    private var events: [String: PresenceEvent] = [:]

    var isEmpty: Bool { order.isEmpty }
    var count: Int { order.count }

    /// Adds one event, merged with what waits for the same member.
    mutating func add(_ event: PresenceEvent) {
        let id = event.member.id
        guard let waiting = events[id] else {
            events[id] = event
            order.append(id)
            return
        }
        switch (waiting.kind, event.kind) {
        case (.join, .leave):
            events[id] = nil
            order.removeAll { $0 == id }
        case (.join, _):
            events[id] = PresenceEvent(.join, event.member)
        case (.leave, .join):
            events[id] = PresenceEvent(.update, event.member)
        default:
            events[id] = event
        }
    }

    /// Takes everything, in the order the members first waited.
    mutating func take() -> [PresenceEvent] {
        defer {
            order = []
            events = [:]
        }
        return order.compactMap { events[$0] }
    }
}
