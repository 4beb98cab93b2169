import GoalClient
import GoalLocking

/// A `Transport` that passes everything through (to whichever server the client picks) and remembers the last
/// failure or close, so a command can say precisely why it could not connect (the client's status only says that it
/// is retrying).
///
/// Thread-safe: the last event lives in a `LockedValue`.
final class RecordingTransport: Transport {
    private let base: any Transport
    private let last = LockedValue<TransportEvent?>(nil)

    init(_ base: any Transport) {
        self.base = base
    }

    /// The last `.failed` or `.closed` event of any connection.
    var lastEnding: TransportEvent? { last.withLock { $0 } }

    func connect(events: @escaping @Sendable (TransportEvent) -> Void) -> any TransportConnection {
        connect(server: 0, events: events)
    }

    func connect(server: Int, events: @escaping @Sendable (TransportEvent) -> Void) -> any TransportConnection {
        base.connect(server: server) { [self] event in
            switch event {
            case .failed, .closed: self.last.withLock { $0 = event }
            case .connected, .message, .pong: break
            }
            events(event)
        }
    }
}
