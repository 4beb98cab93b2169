import GoalModel
import NIOConcurrencyHelpers

/// Which session currently speaks for each client instance, so one instance never has two writers. The newer
/// connection wins: a session claiming an instance held by an older session replaces it (the older one is closed
/// with `session_replaced`, 4409); a session older than the holder — a client's abandoned attempt whose `hello` was
/// authenticated late — is refused with 4409 itself and the client's current session stays. Session ids grow with
/// each upgraded connection, so they order connections.
///
/// Threading: any thread; one lock (`Sendable`). Lifetime: the daemon's.
final class InstanceRegistry: Sendable {
    /// The result of a claim.
    enum Claim: Equatable {
        /// `address` now speaks for the instance; close `replacing` (4409) if there was an older session.
        case claimed(replacing: ReplyAddress?)
        /// A newer session holds the instance; the claimant must be refused (4409).
        case superseded(by: ReplyAddress)
    }

    private let owners = NIOLockedValueBox([ClientInstanceID: ReplyAddress]())

    /// Makes `address` the instance's session unless a newer session holds it.
    func claim(_ instance: ClientInstanceID, for address: ReplyAddress) -> Claim {
        owners.withLockedValue { owners in
            guard let previous = owners[instance], previous != address else {
                owners[instance] = address
                return .claimed(replacing: nil)
            }
            if previous.session > address.session { return .superseded(by: previous) }
            owners[instance] = address
            return .claimed(replacing: previous)
        }
    }

    /// Forgets the instance if `address` still owns it.
    func release(_ instance: ClientInstanceID, for address: ReplyAddress) {
        owners.withLockedValue { owners in
            if owners[instance] == address { owners[instance] = nil }
        }
    }
}
