public import Foundation

/// Jittered exponential backoff: attempt n waits `min(maximum, initial × multiplier^(n−1))`, scaled down by up to
/// `jitter` (a fraction) using a random unit the caller supplies, so clients that lost the same server spread out.
///
/// Every stream client's backoff is one of the presets below (`standard`, `tail`, `loadGenerator`): the one place
/// reconnect timing is defined (the heartbeat's is `HeartbeatPolicy`).
///
/// Value type, `Sendable`; `delay(attempt:unit:)` is a pure function.
public struct BackoffPolicy: Hashable, Sendable {
    /// The delay before the first reconnect attempt, before jitter (seconds).
    public var initial: TimeInterval
    /// The largest delay, before jitter (seconds).
    public var maximum: TimeInterval
    /// The growth factor per attempt.
    public var multiplier: Double
    /// The fraction of the delay that jitter may remove: 0.5 means a delay lands in [d/2, d].
    public var jitter: Double

    /// Creates a policy.
    /// - Parameters:
    ///   - initial: Default 0.5 s.
    ///   - maximum: Default 30 s.
    ///   - multiplier: Default 2.
    ///   - jitter: Default 0.5.
    public init(initial: TimeInterval = 0.5, maximum: TimeInterval = 30, multiplier: Double = 2, jitter: Double = 0.5) {
        self.initial = initial
        self.maximum = maximum
        self.multiplier = multiplier
        self.jitter = min(max(jitter, 0), 1)
    }

    /// The default policy (`GoalClient`, the apps): 0.5 s doubling to 30 s, up to half of each delay removed by jitter.
    public static let standard = BackoffPolicy()

    /// `goal-client tail`: 1, 2, 4, 5, 5 … s, without jitter (run with `ConstantJitter(0)`), so the "resuming in N s"
    /// line it prints is exact.
    public static let tail = BackoffPolicy(initial: 1, maximum: 5, multiplier: 2, jitter: 0)

    /// goal-load's subscribers and writers: a fixed pause spread over 0.1–0.3 s by the connection's index, no growth
    /// (run with `ConstantJitter(index % 200 / 200)`: jitter removes up to two thirds of 0.3 s), so a lost node's
    /// thousands of connections come back spread out and fast.
    public static let loadGenerator = BackoffPolicy(initial: 0.3, maximum: 0.3, multiplier: 1, jitter: 2.0 / 3)

    /// The delay before attempt `attempt` (1-based).
    /// - Parameters:
    ///   - attempt: 1 for the first reconnect attempt.
    ///   - unit: A random number in [0, 1); 0 gives the full delay, values near 1 remove `jitter` of it.
    /// - Returns: The delay in seconds.
    public func delay(attempt: Int, unit: Double) -> TimeInterval {
        let exponent = Double(max(attempt, 1) - 1)
        let base = min(maximum, initial * pow(multiplier, exponent))
        let clampedUnit = min(max(unit, 0), 1)
        return base * (1 - jitter * clampedUnit)
    }
}

/// A source of random units in [0, 1) for backoff jitter. Inject a fixed sequence in tests.
///
/// Threading: called only on the client's serial scheduler; conformers must be `Sendable`.
public protocol JitterSource: Sendable {
    /// The next random number in [0, 1).
    func nextUnit() -> Double
}

/// Jitter from the system random number generator.
public struct SystemJitter: JitterSource {
    public init() {}

    public func nextUnit() -> Double { Double.random(in: 0..<1) }
}

/// The same unit every time: no jitter (`tail`), or a spread fixed per connection (goal-load's index).
public struct ConstantJitter: JitterSource {
    /// The unit returned, in [0, 1).
    public let unit: Double

    public init(_ unit: Double) {
        self.unit = unit
    }

    public func nextUnit() -> Double { unit }
}
