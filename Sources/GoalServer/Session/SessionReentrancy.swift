import GoalWire
import NIOWebSocket

/// How a session ends. Every close goes through `SessionMachine.requestClose(_:)`, whatever its cause (4008, a write
/// error, a revoked token, a failed heartbeat, shutdown, the peer's own close).
enum SessionClose: Equatable {
    /// `error{code, message}`, then the close frame (`closeCode`, else the error code's own), then the connection
    /// closes once they are written (a slow consumer's is reset after its grace instead).
    case error(WireErrorCode, String, closeCode: CloseCode? = nil)
    /// Answers the peer's close frame with this code, then closes the connection.
    case answer(UInt16)
    /// Closes the connection at once, with no frame (the peer answered our close, or the channel failed).
    case drop
}

/// The session's guard against re-entrance (docs/ARCHITECTURE.md, "Re-entrancy"). NIO may call back into a
/// handler from inside its own `write` and `flush`: a flush can make the channel writable again
/// (`channelWritabilityChanged`), fail and close the channel (`errorCaught`, `channelInactive`). None of these may act
/// while the handler is in the middle of performing the machine's actions: they would meet a write half done.
///
/// So the handler performs actions inside a *section*; what NIO raises during one is recorded here and performed when
/// the outermost section ends, in a fixed order: the close the machine holds (`SessionMachine.takePendingClose`, the
/// first one asked for wins), then the teardown, then the writability change. The machine itself takes no callback
/// and calls nothing while it mutates, so nothing can reach back into it while it changes.
///
/// Value type, confined to the session's event loop with its handler. Lifetime: the connection's.
struct SessionReentrancy {
    /// What the handler performs once the outermost section has ended (after the machine's pending close).
    enum Deferred: Equatable {
        /// The channel went inactive or the handler was removed: release what the session holds.
        case tearDown
        /// The channel became writable during a write: drain the queue, pump the catch-up, write presence.
        case writable
    }

    /// Sections open now (a section may open another: a delivery writes, a write flushes).
    private(set) var depth = 0
    private var pendingTearDown = false
    private var pendingWritable = false

    /// True while a section is open: what NIO raises now is deferred.
    var isInSection: Bool { depth > 0 }

    mutating func enter() {
        depth += 1
    }

    /// Ends a section.
    /// - Returns: what to perform now, in order (empty unless the outermost section ended and something waits).
    ///   The caller performs it inside a section of its own and calls `leave` again for what that raised.
    mutating func leave() -> [Deferred] {
        depth -= 1
        guard depth == 0 else { return [] }
        var due: [Deferred] = []
        if pendingTearDown {
            due.append(.tearDown)
            pendingTearDown = false
        }
        if pendingWritable {
            due.append(.writable)
            pendingWritable = false
        }
        return due
    }

    /// The channel went inactive or the handler is being removed.
    /// - Returns: true when the caller tears down now.
    mutating func tearDown() -> Bool {
        guard depth > 0 else { return true }
        pendingTearDown = true
        return false
    }

    /// The channel became writable.
    /// - Returns: true when the caller acts on it now.
    mutating func becameWritable() -> Bool {
        guard depth > 0 else { return true }
        pendingWritable = true
        return false
    }
}
