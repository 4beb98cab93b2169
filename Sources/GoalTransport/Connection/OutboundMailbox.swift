import NIOConcurrencyHelpers

/// What callers on any thread ask a connection to do; the connection's event loop carries it out in order.
enum OutboundCommand: Sendable {
    /// One complete text message.
    case message([UInt8])
    /// A ping frame.
    case ping
}

/// The queue between callers on any thread and the connection's event loop.
///
/// Commands appended while a drain is already pending (or while the connection is still opening) ride along with
/// it, so a burst of sends costs one event-loop hop and one flush. Threading: every member is guarded by the lock
/// of the `NIOLockedValueBox` that holds it.
struct OutboundMailbox: Sendable {
    /// Commands not yet written, oldest first.
    var commands: [OutboundCommand] = []
    /// True while a drain is scheduled on the event loop, or while the connection is opening (the core drains
    /// when it opens): appending then needs no new hop.
    var drainPending = false
    /// False once `close` was called or the connection ended: further commands are dropped.
    var accepting = true

    /// Appends a command.
    ///
    /// - Returns: True when the caller must schedule a drain on the event loop.
    mutating func append(_ command: OutboundCommand) -> Bool {
        guard accepting else { return false }
        commands.append(command)
        if drainPending { return false }
        drainPending = true
        return true
    }

    /// Takes every queued command and clears the pending flag.
    mutating func take() -> [OutboundCommand] {
        var taken: [OutboundCommand] = []
        swap(&taken, &commands)
        drainPending = false
        return taken
    }

    /// Stops accepting commands and drops the queued ones.
    mutating func shut() {
        accepting = false
        commands = []
    }
}
