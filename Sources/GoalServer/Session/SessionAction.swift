import GoalModel
import GoalStore
import GoalWire
import Logging
import NIOCore

/// What `SessionHandler` does for its `SessionMachine`, in the order the machine returns them. The machine's
/// mutation has ended before the first is performed; performing one may feed the machine a new event (a send
/// asks it whether to write or queue, a registry answers), whose actions are performed next.
enum SessionAction {
    // MARK: Writing

    /// A live frame: ask `SessionMachine.send(_:writable:)` whether to write or queue it (counted toward the bound).
    case send(ByteBuffer)
    /// Catch-up bytes (snapshot, backlog page, presence list): written within the catch-up flush budget, never
    /// counted toward the bound (`SessionMachine.sendCatchUp`).
    case sendCatchUp(ByteBuffer)
    /// Presence events, written as they are beside the stream (a flush is due).
    case writeUnbudgeted([ByteBuffer])
    /// Flush when something was written since the last flush, then check the bound.
    case flush
    /// Advance the catch-up as far as the socket allows (`SessionMachine.catchUpStep`).
    case pumpCatchUp
    /// Handle these text frames pipelined behind the hello, in order, while the session is open.
    case replay([ByteBuffer])

    // MARK: Ending

    /// Write `error` (when any) and the close frame, flush, and end the connection as `then` says.
    case writeClose(error: ByteBuffer?, close: ByteBuffer, then: ConnectionEnd)
    /// Close the connection now.
    case closeNow

    // MARK: Reading

    /// Stop reading from the socket; call `SessionMachine.readsMayResume()` after this long.
    case pauseReads(TimeAmount)
    /// Read from the socket again.
    case resumeReads

    // MARK: Timers

    /// The hello was accepted: the handshake deadline no longer applies.
    case cancelHandshakeDeadline
    /// Call `SessionMachine.presenceTimerFired(now:)` after this long.
    case schedulePresenceTimer(TimeAmount)
    case cancelPresenceTimer

    // MARK: Collaborators

    /// Read the hello's token and the log's bounds off the event loop; report with `helloRead`.
    case authenticate(ClientMessage.Hello)
    /// Wait until the engine's durable head reaches `since`; then report with `helloReady`.
    case awaitDurable(Revision, ClientMessage.Hello, HelloFacts)
    /// Ask the registries whether the token may connect (`SessionCollaborators.admit`); report with `admitted`.
    case admit(StoredToken, ClientMessage.Hello, HelloFacts)
    /// Register with the shard; report its head with `joinedShard`.
    case joinShard(ClientMessage.Hello, HelloFacts, pipelined: [ByteBuffer])
    /// Close the session of the same client instance this one replaces.
    case replaceSession(ReplyAddress)
    /// Submit a mutation to the engine; report a full inbox with `submitRefused(seq:)`.
    case submit(MutationRequest, seq: UInt64)
    /// Read a history answer off the event loop; report with `historyRead`.
    case readHistory(HistoryRequest)
    /// Read the backlog page (after, upTo] off the event loop; report with `backlogPageRead`.
    case readBacklogPage(after: Revision, upTo: Revision)
    /// Ask the snapshot cache for the durable snapshot; report with `snapshotBuilt`.
    case requestSnapshot
    /// A change to the league's presence registry.
    case presence(PresenceChange)
    /// Read the registry's members and report them with `presenceState`.
    case readPresenceMembers
    /// Take these bytes off the server's global queued count.
    case uncountQueued(Int)
    /// Evict this loop's largest queue as a slow consumer (the global cap was passed).
    case evictLargestQueue
    /// Leave the shard, the connection limiter and the instance registry.
    case unregister(SessionIdentity)
    case count(SessionMetric)
    case log(Logger.Level, Logger.Message, Logger.Metadata = [:])
    /// From now on the session's log lines name its token.
    case tagLogger(token: String)
}

/// How the connection ends after the session's close frame.
enum ConnectionEnd: Equatable {
    /// Once the close frame is written (the peer closed first).
    case onceWritten
    /// After this grace (the peer's close frame may come first).
    case closeAfter(TimeAmount)
    /// Reset beneath TLS after this grace (a slow consumer may never read again, PROTOCOL.md §7).
    case abortAfter(TimeAmount)
}

/// A change a session makes to the presence registry (docs/PROTOCOL.md §4 "Presence").
enum PresenceChange: Equatable {
    case addReceiver
    case removeReceiver
    case set(PresenceMember)
    case leave(String)
}

/// The session's metrics.
enum SessionMetric: Equatable {
    case sessionOpened
    case sessionClosed
    case rateLimited
    case overloaded
    case slowConsumerClose
    case presenceCoalesced
    case fanoutRejoin
    /// A close with this code (`ServerMetrics.recordClose`).
    case close(code: UInt16)
}

/// The time of an event, both clocks: the monotonic one for deadlines and rates, the wall one for what the protocol
/// shows (`server_time`, a presence member's `since`). Passed in by the handler: the machine reads no clock.
struct SessionNow {
    var uptime: NIODeadline
    var wall: Timestamp
}
