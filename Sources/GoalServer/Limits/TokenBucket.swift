import NIOCore

/// A token bucket: `rate` tokens a second up to `capacity`; each event takes one. Used for a session's mutation
/// rate (answered with `rate_limited{retry_after_ms}`) and its frame flood guard (close 4029).
///
/// Value type; owned by one session on its event loop. Time is passed in (`NIODeadline`), so tests drive it.
struct TokenBucket {
    let rate: Double
    let capacity: Double
    private var tokens: Double
    private var updated: NIODeadline

    init(rate: Double, capacity: Double, now: NIODeadline) {
        self.rate = rate
        self.capacity = capacity
        self.tokens = capacity
        self.updated = now
    }

    /// Takes one token if there is one.
    /// - Returns: true when the event may go ahead.
    mutating func take(now: NIODeadline) -> Bool {
        refill(now: now)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }

    /// The longest wait ever advised: one day. A tiny configured rate (say 0.000001/s) would otherwise advise a wait
    /// beyond `Int`'s range, and converting that `Double` to `Int` traps.
    static let maximumAdvisedWaitMilliseconds = 86_400_000

    /// Milliseconds until one token is available again: at least 1, at most `maximumAdvisedWaitMilliseconds`.
    func millisecondsUntilNextToken() -> Int {
        guard rate > 0 else { return Self.maximumAdvisedWaitMilliseconds }
        let wait = ((1 - tokens) / rate * 1_000).rounded(.up)
        guard wait.isFinite, wait < Double(Self.maximumAdvisedWaitMilliseconds) else {
            return Self.maximumAdvisedWaitMilliseconds
        }
        return max(1, Int(wait))
    }

    private mutating func refill(now: NIODeadline) {
        let elapsed = Double((now - updated).nanoseconds) / 1_000_000_000
        if elapsed > 0 {
            tokens = min(capacity, tokens + elapsed * rate)
            updated = now
        }
    }
}
