public import Foundation
public import GoalModel
public import GoalReactive
public import GoalWire

/// What a `ResumeDriver`'s owner does with its stream: reset per-connection state, read messages, publish status.
///
/// Threading: every method is called in the driver's context (its serial scheduler, or the delivering thread for an
/// inline driver), with the driver's lock held, at a point where the driver's own state is consistent. A method may
/// read the driver, `send` on it and lend its machine (`updateMachine`); it may call an input (`stop`, …) too: the
/// driver checks, after each call, whether its connection is still the one it was. Lifetime: the driver holds its
/// delegate weakly; the owner holds the driver.
public protocol ResumeDriverDelegate: AnyObject, Sendable {
    /// Connection attempt `attempt` (0: the first after `start`, n: the n-th retry since the last welcome) to
    /// `server` begins: reset what belongs to one connection. `loss` is the loss this attempt follows at once
    /// (failover to the next server without a wait); nil for a first attempt and after a wait.
    func resumeDriver(_ driver: ResumeDriver, connecting attempt: Int, server: Int, after loss: ResumeDriver.Loss?)

    /// One inbound message of the current connection (the read is already noted for the heartbeat). Judge it
    /// through the driver's machine (`updateMachine`) and say whether the stream can go on.
    func resumeDriver(_ driver: ResumeDriver, received bytes: [UInt8]) -> ResumeDriver.Verdict

    /// A pong answered the driver's ping after `roundTrip` seconds. Default: nothing.
    func resumeDriver(_ driver: ResumeDriver, pong roundTrip: TimeInterval)

    /// The close code and message that explain a close (`code` and `reason` as the transport reported them): an
    /// owner that read the server's `error` before it may name that. Default: the transport's.
    func resumeDriver(_ driver: ResumeDriver, explainClose code: UInt16?, reason: String) -> (CloseCode?, String)

    /// The connection is gone (`loss`), or the driver stopped (`loss` nil; called on every stop, connected or not):
    /// forget what belonged to it. What follows (a connect, a wait, a stop) is reported next.
    func resumeDriver(_ driver: ResumeDriver, disconnected loss: ResumeDriver.Loss?)

    /// The driver waits `delay` seconds before retry `attempt` (every server failed in a row).
    func resumeDriver(_ driver: ResumeDriver, waiting attempt: Int, delay: TimeInterval, after loss: ResumeDriver.Loss?)

    /// The driver stopped for good (until `start`).
    func resumeDriver(_ driver: ResumeDriver, stopped reason: StopReason)

    /// Asked before the driver resumes after a loss (and when its retry timer fires): false stops it quietly (no
    /// `stopped` call), as goal-load does once its run is over. Default: true.
    func resumeDriverMayResume(_ driver: ResumeDriver) -> Bool
}

extension ResumeDriverDelegate {
    public func resumeDriver(_ driver: ResumeDriver, pong roundTrip: TimeInterval) {}

    public func resumeDriver(_ driver: ResumeDriver, explainClose code: UInt16?, reason: String) -> (CloseCode?, String)
    {
        (code.map(CloseCode.init(rawValue:)), reason)
    }

    public func resumeDriverMayResume(_ driver: ResumeDriver) -> Bool { true }
}

extension ResumeDriver {
    /// How a connection was lost. Value type, `Sendable`.
    public enum Loss: Equatable, Sendable {
        /// The connection ended: the transport's close code (nil: dropped without one) and the message that explains
        /// it (`ResumeDriverDelegate.resumeDriver(_:explainClose:reason:)`).
        case closed(code: UInt16?, message: String)
        /// The connection could not be opened.
        case failed(TransportFailure)
        /// The driver gave up on it (the owner's verdict, a dead peer) and closed it with `code`.
        case abandoned(CloseCode, reason: String)
    }

    /// What the owner made of a message. Value type, `Sendable`.
    public enum Verdict: Hashable, Sendable {
        /// The stream goes on.
        case proceed
        /// The stream cannot go on (a gap, an unreadable message): close with this code and resume from the position.
        case abandon(CloseCode, reason: String)
    }

    /// How the driver treats a connection that could not be opened. Value type, `Sendable`.
    public enum FailureRule: Hashable, Sendable {
        /// As the machine says (`ResumeSession.connectionFailed`): a TLS failure that ends a round stops (GoalClient).
        case machine
        /// Always resume, TLS failures too (goal-load: a handshake cut under load is not a misconfiguration).
        case retry
        /// Before the first welcome, a failure that is not followed by an attempt at another server at once stops
        /// with `StopReason.transportFailed` (a wrong address or certificate: say so and exit); after it, resume
        /// always (`goal-client tail`: a server was reachable and trusted, a failure now is a restart).
        case fatalUntilWelcomed
    }

    /// Where the driver runs. Value type, `Sendable`.
    public enum Execution: Sendable {
        /// Every input, transport event and timer hops onto this serial, asynchronous scheduler (a `QueueScheduler`,
        /// a `TestScheduler`); time is its clock. Owners that publish outputs on one scheduler (GoalClient, tail).
        case serial(any DateScheduler)
        /// Inputs and transport events run at once on the thread that delivers them, serialized by the driver's
        /// lock; timers run on `timers`, time is its clock. For thousands of drivers whose events already arrive
        /// on event loops (goal-load): no hop, no allocation per message. The owner must not call inputs from
        /// delegate methods.
        case inline(timers: any DateScheduler)
    }

    /// When the hello goes out. Value type, `Sendable`.
    public enum HelloTiming: Hashable, Sendable {
        /// When the transport reports `.connected`.
        case onConnected
        /// As soon as the connection is opening (the transport queues it until the upgrade completes): goal-load
        /// times hello → `caught_up` from there.
        case onOpen
    }

    /// What the driver's hellos say and how it runs. Value type, `Sendable`.
    public struct Options: Sendable {
        /// The bearer token.
        public var token: String
        /// The client instance.
        public var instance: ClientInstanceID
        /// The league the hellos name; nil: none (the default league, and the hello is what it was before leagues).
        public var league: LeagueSlug?
        /// `all` or `acks`.
        public var stream: ClientMessage.StreamSelection
        /// The newest protocol version to ask for (`ResumeSession.connectionOpened`).
        public var protocolVersion: Int
        /// What the hello asks of presence.
        public var presence: PresenceSubscription
        /// False: hellos name no position (an `acks` stream resumes nothing); the machine still counts welcomes.
        public var resumesPosition: Bool
        /// Pings and the dead-peer check; nil: none (the transport's own timeouts only).
        public var heartbeat: HeartbeatPolicy?
        /// How failures to connect are treated.
        public var failures: FailureRule
        /// When the hello goes out.
        public var helloTiming: HelloTiming

        public init(
            token: String,
            instance: ClientInstanceID,
            stream: ClientMessage.StreamSelection = .all,
            protocolVersion: Int = WireProtocol.version,
            presence: PresenceSubscription = .none,
            resumesPosition: Bool = true,
            heartbeat: HeartbeatPolicy? = .standard,
            failures: FailureRule = .machine,
            helloTiming: HelloTiming = .onConnected,
            league: LeagueSlug? = nil
        ) {
            self.token = token
            self.instance = instance
            self.league = league
            self.stream = stream
            self.protocolVersion = protocolVersion
            self.presence = presence
            self.resumesPosition = resumesPosition
            self.heartbeat = heartbeat
            self.failures = failures
            self.helloTiming = helloTiming
        }
    }
}
