import GoalModel
import NIOConcurrencyHelpers

/// Which session currently speaks for each client instance. A second session with the same `client_instance`
/// replaces the first, which is closed with `session_replaced` (4409), so one instance never has two writers.
///
/// Threading: any thread; one lock (`Sendable`). Lifetime: the daemon's.
final class InstanceRegistry: Sendable {
    private let owners = NIOLockedValueBox([ClientInstanceID: ReplyAddress]())

    /// Makes `address` the instance's session.
    /// - Returns: the session it replaces, if any.
    func claim(_ instance: ClientInstanceID, for address: ReplyAddress) -> ReplyAddress? {
        owners.withLockedValue { owners in
            let previous = owners[instance]
            owners[instance] = address
            return previous == address ? nil : previous
        }
    }

    /// Forgets the instance if `address` still owns it.
    func release(_ instance: ClientInstanceID, for address: ReplyAddress) {
        owners.withLockedValue { owners in
            if owners[instance] == address { owners[instance] = nil }
        }
    }
}
