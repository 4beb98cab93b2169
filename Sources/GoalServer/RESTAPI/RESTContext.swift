import GoalModel
import Synchronization

/// What every HTTP API request shares: the anonymous role (`http.anonymousRole`) and the mutation ids of writes
/// sent without an `Idempotency-Key`. One per daemon (`RESTAPI.Collaborators.context`).
///
/// Threading: `Sendable`; the seq counter is atomic. Lifetime: the daemon's.
final class RESTContext: Sendable {
    /// The role of a request without `Authorization`; nil answers it 401.
    let anonymousRole: Role?
    /// The client instance of writes without an `Idempotency-Key`: fresh per process, so its seqs (1, 2, 3 …) never
    /// meet an earlier process's record. Such writes are applied once each, as Goalbase did: a retry is a new write.
    let keylessInstance = ClientInstanceID("http-" + ClientInstanceID.random().rawValue.prefix(36))!
    private let lastKeylessSeq = Atomic<UInt64>(0)

    init(anonymousRole: Role?) {
        self.anonymousRole = anonymousRole
    }

    /// The next seq of `keylessInstance`.
    func nextKeylessSeq() -> UInt64 {
        lastKeylessSeq.add(1, ordering: .relaxed).newValue
    }
}
