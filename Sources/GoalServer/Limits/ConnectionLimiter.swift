import Foundation
import NIOConcurrencyHelpers

/// Counts open connections in total, per IP address and authenticated sessions per token, and refuses past the
/// configured caps (docs/PROTOCOL.md "Connection limits before a session exists").
///
/// Threading: every method may be called from any event loop; one lock guards the counters (`Sendable`).
/// Lifetime: the daemon's. Every successful `admit…` must be paired with its `release…`.
final class ConnectionLimiter: Sendable {
    /// Why a connection was refused.
    enum Refusal: Equatable, CustomStringConvertible {
        case total(limit: Int)
        case perIP(address: String, limit: Int)
        case perToken(name: String, limit: Int)

        var description: String {
            switch self {
            case .total(let limit): "the server holds its maximum of \(limit) connections"
            case .perIP(let address, let limit): "\(address) already holds the maximum of \(limit) connections"
            case .perToken(let name, let limit): "token \(name) already holds the maximum of \(limit) sessions"
            }
        }
    }

    private struct Counts {
        var total = 0
        var byIP = KeyedCounts<String>()
        var byToken = KeyedCounts<UUID>()
    }

    let maxTotal: Int
    let maxPerIP: Int
    let maxPerToken: Int
    private let counts = NIOLockedValueBox(Counts())

    init(maxTotal: Int, maxPerIP: Int, maxPerToken: Int) {
        self.maxTotal = maxTotal
        self.maxPerIP = maxPerIP
        self.maxPerToken = maxPerToken
    }

    /// Open connections now.
    var total: Int { counts.withLockedValue { $0.total } }

    /// Counts a new TCP connection unless the total cap is reached.
    func admitConnection() -> Refusal? {
        counts.withLockedValue { counts in
            guard counts.total < maxTotal else { return .total(limit: maxTotal) }
            counts.total += 1
            return nil
        }
    }

    func releaseConnection() {
        counts.withLockedValue { $0.total -= 1 }
    }

    /// Counts a connection from `address` unless its cap is reached.
    func admitIP(_ address: String) -> Refusal? {
        counts.withLockedValue { $0.byIP.admit(address, limit: maxPerIP) }
            ? nil : .perIP(address: address, limit: maxPerIP)
    }

    func releaseIP(_ address: String) {
        counts.withLockedValue { $0.byIP.release(address) }
    }

    /// Counts an authenticated session of a token unless its cap is reached.
    func admitToken(_ id: UUID, name: String) -> Refusal? {
        counts.withLockedValue { $0.byToken.admit(id, limit: maxPerToken) }
            ? nil : .perToken(name: name, limit: maxPerToken)
    }

    func releaseToken(_ id: UUID) {
        counts.withLockedValue { $0.byToken.release(id) }
    }
}

/// Open connections per key (an IP address, a token), each under a cap; a key with none is not kept. Value type.
struct KeyedCounts<Key: Hashable & Sendable>: Sendable {
    private var counts: [Key: Int] = [:]

    /// Counts one more for `key` unless it holds `limit` already. - Returns: whether it was counted.
    mutating func admit(_ key: Key, limit: Int) -> Bool {
        let current = counts[key, default: 0]
        guard current < limit else { return false }
        counts[key] = current + 1
        return true
    }

    /// Counts one fewer for `key`.
    mutating func release(_ key: Key) {
        let left = counts[key, default: 1] - 1
        counts[key] = left > 0 ? left : nil
    }
}
