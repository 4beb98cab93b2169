import Foundation
import NIOConcurrencyHelpers

/// Counts open connections in total, per IP address and authenticated sessions per token, and refuses past the
/// configured caps (DESIGN.md: "connections capped per IP, per token and in total").
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
        var byIP: [String: Int] = [:]
        var byToken: [UUID: Int] = [:]
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
        counts.withLockedValue { counts in
            let current = counts.byIP[address, default: 0]
            guard current < maxPerIP else { return .perIP(address: address, limit: maxPerIP) }
            counts.byIP[address] = current + 1
            return nil
        }
    }

    func releaseIP(_ address: String) {
        counts.withLockedValue { counts in
            let left = counts.byIP[address, default: 1] - 1
            counts.byIP[address] = left > 0 ? left : nil
        }
    }

    /// Counts an authenticated session of a token unless its cap is reached.
    func admitToken(_ id: UUID, name: String) -> Refusal? {
        counts.withLockedValue { counts in
            let current = counts.byToken[id, default: 0]
            guard current < maxPerToken else { return .perToken(name: name, limit: maxPerToken) }
            counts.byToken[id] = current + 1
            return nil
        }
    }

    func releaseToken(_ id: UUID) {
        counts.withLockedValue { counts in
            let left = counts.byToken[id, default: 1] - 1
            counts.byToken[id] = left > 0 ? left : nil
        }
    }
}
