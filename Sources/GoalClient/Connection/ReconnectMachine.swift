public import Foundation
public import GoalWire

/// The reconnect and backoff rules as a pure state machine: events in, one action out. The client executes the
/// actions (open a connection, arm a timer); this type never touches a clock, a socket or a random generator.
///
/// Value type, `Sendable`; owned by one `GoalClient` and changed only on its serial scheduler.
///
/// Rules:
/// - The client has `serverCount` servers in failover order (`ClientConfiguration.servers`); `server` is the one the
///   current connection goes to, or the next one will. `start` opens attempt 0 (the first try) to `server`.
///   Attempt n ≥ 1 is the n-th retry since the last `welcome`, which resets the count.
/// - A lost connection (closed with a reconnect-class code, dropped, or failed to open) moves on to the next server
///   (round robin) and opens retry n there at once, where n grows by one per failure until a `welcome` arrives.
///   Only once every server has failed in a row (n a multiple of `serverCount`) does it wait
///   `policy.delay(attempt: n / serverCount)` first. With one server every failure waits `policy.delay(attempt: n)`.
/// - One exception bounds nodes that welcome the client and then drop it at once: a welcomed connection lost after
///   the previous welcomed connection was lost and left at once (no wait in between) waits `policy.delay(attempt:
///   1)` before the next server. Such a set of nodes is retried at most about as fast as one server would be; a
///   node that dies after a healthy session costs that one wait at most.
/// - A terminal close code (`CloseCode.isTerminal`) or `stop` stops for good: no more actions until `start`. So does
///   a TLS failure, unless a server of this round has not been tried yet: then it moves on to it like any other
///   failure (one node's cut or misconfigured handshake must not keep the client from the others); with one server
///   a TLS failure always stops.
/// - Closes and failures count only while a connection is opening or open; late ones are ignored.
/// - `reconnectNow` (a refresh) skips a pending wait.
public struct ReconnectMachine: Hashable, Sendable {
    /// Where the machine stands.
    public enum State: Hashable, Sendable {
        case idle
        /// Attempt `attempt` (0: first try, n: n-th retry) is opening, or open but not yet authenticated.
        case connecting(attempt: Int)
        /// Authenticated (after `welcome`).
        case connected
        /// Waiting `delay` before opening `attempt`.
        case waiting(attempt: Int, delay: TimeInterval)
        case stopped(StopReason)
    }

    /// What the client must do next.
    public enum Action: Hashable, Sendable {
        /// Open a new connection now (0: first try, n: n-th retry) to the machine's `server`.
        case connect(attempt: Int)
        /// Arm a timer for `delay` seconds, then call `retryTimerFired()` (which connects to `server`).
        case wait(attempt: Int, delay: TimeInterval)
        /// Close any connection and publish the stop; nothing follows.
        case stop(StopReason)
        /// Nothing to do.
        case none
    }

    public private(set) var state: State = .idle
    public let policy: BackoffPolicy
    /// How many servers the client has, in failover order (at least 1).
    public let serverCount: Int
    /// The server (an index into the client's list, `0..<serverCount`) the current connection goes to, or the next
    /// one will.
    public private(set) var server = 0
    /// True when a welcomed connection was lost and left for the next server at once since the last wait.
    private var hoppedWithoutWait = false

    /// Creates an idle machine.
    /// - Parameters:
    ///   - policy: The backoff between rounds of failures.
    ///   - serverCount: How many servers to rotate over (values below 1 count as 1).
    ///   - server: The server to try first (wrapped into `0..<serverCount`); default the first.
    public init(policy: BackoffPolicy = .standard, serverCount: Int = 1, server: Int = 0) {
        self.policy = policy
        self.serverCount = max(serverCount, 1)
        self.server = ((server % self.serverCount) + self.serverCount) % self.serverCount
    }

    /// Starts connecting (from idle, or again after a stop).
    public mutating func start() -> Action {
        switch state {
        case .idle, .stopped:
            state = .connecting(attempt: 0)
            return .connect(attempt: 0)
        case .connecting, .connected, .waiting:
            return .none
        }
    }

    /// The server accepted the session (`welcome`): the next loss starts over at attempt 1.
    public mutating func authenticated() {
        if case .connecting = state { state = .connected }
    }

    /// The connection ended: `code` is the close code (nil when it dropped or was abandoned as dead).
    /// - Parameter unit: A random unit in [0, 1) for the jitter of the next delay.
    public mutating func connectionClosed(code: CloseCode?, message: String, unit: Double) -> Action {
        guard hasConnection else { return .none }
        if let code, code.isTerminal {
            return stopNow(.terminal(code: code, message: message))
        }
        return lost(unit: unit)
    }

    /// The connection could not be opened.
    /// - Parameter unit: A random unit in [0, 1) for the jitter of the next delay.
    public mutating func connectionFailed(_ failure: TransportFailure, unit: Double) -> Action {
        guard hasConnection else { return .none }
        if failure.kind == .tls, failuresInARow % serverCount == 0 {
            return stopNow(.transportFailed(kind: failure.kind, message: failure.message))
        }
        return lost(unit: unit)
    }

    /// The backoff timer fired.
    public mutating func retryTimerFired() -> Action {
        guard case .waiting(let attempt, _) = state else { return .none }
        state = .connecting(attempt: attempt)
        return .connect(attempt: attempt)
    }

    /// Skips the wait in progress, if any (a user asked to refresh).
    public mutating func reconnectNow() -> Action {
        retryTimerFired()
    }

    /// Stops for good at the client's request.
    public mutating func stop() -> Action {
        if case .stopped = state { return .none }
        return stopNow(.requested)
    }

    /// True while a connection is opening or open: only then can it close or fail.
    private var hasConnection: Bool {
        switch state {
        case .connecting, .connected: true
        case .idle, .waiting, .stopped: false
        }
    }

    /// The failures in a row, counting the one being reported now (0 without a connection).
    private var failuresInARow: Int {
        switch state {
        case .connecting(let current): current + 1
        case .connected: 1
        case .idle, .waiting, .stopped: 0
        }
    }

    private mutating func lost(unit: Double) -> Action {
        let attempt = failuresInARow
        guard attempt > 0 else { return .none }
        let welcomed = state == .connected
        server = (server + 1) % serverCount
        let roundOpen = attempt % serverCount != 0
        if roundOpen, !(welcomed && hoppedWithoutWait) {
            // Some server of this round has not been tried yet: try it now.
            if welcomed { hoppedWithoutWait = true }
            state = .connecting(attempt: attempt)
            return .connect(attempt: attempt)
        }
        hoppedWithoutWait = false
        let delay = policy.delay(attempt: max(attempt / serverCount, 1), unit: unit)
        state = .waiting(attempt: attempt, delay: delay)
        return .wait(attempt: attempt, delay: delay)
    }

    private mutating func stopNow(_ reason: StopReason) -> Action {
        if case .stopped = state { return .none }
        hoppedWithoutWait = false
        state = .stopped(reason)
        return .stop(reason)
    }
}
