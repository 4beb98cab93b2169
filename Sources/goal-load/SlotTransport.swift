import GoalClient
import GoalTransport

/// The `Transport` of one goal-load connection slot: opens its connections through the run's `LoadContext`, bound to
/// the slot's source address, to the node the slot's `ResumeDriver` asks for.
///
/// Immutable, `Sendable`; one per subscriber or writer.
struct SlotTransport: Transport {
    let context: LoadContext
    /// The connection slot (subscribers first, then writers): picks the source address.
    let slot: Int

    func connect(events: @escaping @Sendable (TransportEvent) -> Void) -> any TransportConnection {
        context.open(slot: slot, server: 0, events: events)
    }

    func connect(server: Int, events: @escaping @Sendable (TransportEvent) -> Void) -> any TransportConnection {
        context.open(slot: slot, server: server, events: events)
    }
}
