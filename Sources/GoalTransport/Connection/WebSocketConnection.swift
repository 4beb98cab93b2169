public import GoalClient
import NIOConcurrencyHelpers
public import NIOCore

/// One WebSocket connection made by `WebSocketTransport`: the `TransportConnection` GoalClient talks to.
///
/// Threading: every method may be called from any thread. Calls only append to a lock-guarded mailbox; the
/// connection's event loop performs them, in call order, and a burst of sends costs one hop and one flush. All
/// events are delivered on that event loop, one at a time. Lifetime: the connection keeps itself alive through its
/// channel until it ends; after `close(code:)` is called or the terminal event is delivered, sends are dropped.
public final class WebSocketConnection: TransportConnection {
    /// The event loop this connection's channel, state and events live on.
    public let eventLoop: any EventLoop
    private let mailbox: NIOLockedValueBox<OutboundMailbox>
    private let core: NIOLoopBoundBox<ConnectionCore>

    init(eventLoop: any EventLoop, mailbox: NIOLockedValueBox<OutboundMailbox>, core: sending ConnectionCore) {
        self.eventLoop = eventLoop
        self.mailbox = mailbox
        self.core = NIOLoopBoundBox.makeBoxSendingValue(core, as: ConnectionCore.self, eventLoop: eventLoop)
    }

    /// Begins connecting; called once by the transport right after init.
    func start() {
        let core = self.core
        eventLoop.execute { core.value.start() }
    }

    /// Sends one text message; queued until the connection opens, dropped once it is closing or ended.
    ///
    /// - Parameter message: The UTF-8 bytes of one GoalWire JSON message.
    public func send(_ message: [UInt8]) {
        enqueue(.message(message))
    }

    /// Sends a ping; the peer's pong arrives as `TransportEvent.pong`.
    public func ping() {
        enqueue(.ping)
    }

    /// Starts a clean close: messages sent earlier go out first, then a close frame with `code`; the connection waits
    /// briefly for the peer's close frame, then `.closed` follows. Before the connection opened, the attempt is
    /// abandoned and `.closed(code: nil, …)` follows.
    ///
    /// - Parameter code: The WebSocket close code to send (1000 for a normal close).
    public func close(code: UInt16) {
        mailbox.withLockedValue { $0.accepting = false }
        let core = self.core
        eventLoop.execute { core.value.closeRequested(code: code) }
    }

    private func enqueue(_ command: OutboundCommand) {
        guard mailbox.withLockedValue({ $0.append(command) }) else { return }
        let core = self.core
        eventLoop.execute { core.value.drainMailbox() }
    }
}
