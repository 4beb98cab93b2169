public import GoalModel

/// A mutation the server accepted: committed at `revision`, or (`noop`) changed nothing at `revision`.
/// Value type, `Sendable`.
public struct MutationAck: Hashable, Sendable {
    public var id: MutationID
    public var revision: Revision
    /// True when the mutation changed nothing (no commit).
    public var noop: Bool

    public init(id: MutationID, revision: Revision, noop: Bool) {
        self.id = id
        self.revision = revision
        self.noop = noop
    }
}

/// Why a mutation's producer failed: the server refused it (a typed `MutationRejection`: conflict with the current
/// entity, not_found, name_taken, empty_side, invalid for a malformed field, unauthorized, … — every code of
/// `MutationRejection.Code`), the client stopped before an answer arrived, or no answer came in 7 days.
///
/// Value type, `Sendable`; `description` is a message a person can act on.
public struct MutationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What happened.
    public enum Kind: Hashable, Sendable {
        /// The server refused the mutation.
        case rejected(MutationRejection)
        /// The client stopped before the answer arrived. `wasSent` false: the server never saw it; true: the
        /// outcome is unknown (retry with the same id to learn it).
        case stopped(StopReason, wasSent: Bool)
        /// The client stopped before the answer arrived, and the mutation stays in its `ClientStateStore`: the
        /// next client on that store sends it again with the same id (applied at most once). `wasSent` false: the
        /// server has not seen it yet.
        case kept(StopReason, wasSent: Bool)
        /// No answer came within `WireProtocol.minimumClientRecordAgeSeconds` (7 days) of its first send: the
        /// server may have forgotten this client instance and would apply a re-send as new, so it is not sent
        /// again. The outcome is unknown.
        case expired
    }

    public let kind: Kind
    /// The mutation concerned.
    public let id: MutationID

    public init(_ kind: Kind, id: MutationID) {
        self.kind = kind
        self.id = id
    }

    /// The server's rejection, if that is what happened.
    public var rejection: MutationRejection? {
        if case .rejected(let rejection) = kind { return rejection }
        return nil
    }

    /// The rejection's code, if the server refused the mutation.
    public var code: MutationRejection.Code? { rejection?.code }

    public var description: String {
        switch kind {
        case .rejected(let rejection): rejection.message
        case .stopped(let reason, let wasSent):
            wasSent
                ? "the outcome of mutation \(id) is unknown: \(reason)"
                : "mutation \(id) was not sent: \(reason)"
        case .kept(let reason, let wasSent):
            wasSent
                ? "the outcome of mutation \(id) is not known yet (\(reason)); it is kept and sent again, same id"
                : "mutation \(id) is queued (\(reason)); it is kept and sent when a client on this state connects"
        case .expired:
            "the outcome of mutation \(id) is unknown: no answer within 7 days of its first send, and it is not "
                + "sent again (the server may have forgotten this client)"
        }
    }
}
