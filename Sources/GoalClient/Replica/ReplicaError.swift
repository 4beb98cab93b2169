public import GoalModel

/// Why a changeset could not be applied to a replica: the stream is not the continuation of this replica's
/// history, so the client drops the connection and resumes (the server answers with a backlog or a snapshot).
///
/// Value type, `Sendable`; `description` says what was expected.
public struct ReplicaError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Kind: Hashable, Sendable {
        case gap(expected: Revision, received: Revision)
        case digestMismatch(revision: Revision)
        case leanChangeset(revision: Revision, DeltaExpansionError)
    }

    private let kind: Kind

    /// A changeset arrived with revisions missing before it.
    public static func gap(expected: Revision, received: Revision) -> ReplicaError {
        ReplicaError(kind: .gap(expected: expected, received: received))
    }

    /// The changeset's digest is not SHA-256(d_previous ‖ payload) for this replica's d_previous.
    public static func digestMismatch(revision: Revision) -> ReplicaError {
        ReplicaError(kind: .digestMismatch(revision: revision))
    }

    /// A lean changeset (`delta`) does not fit this replica: it cannot be expanded to the full changeset.
    public static func leanChangeset(revision: Revision, _ error: DeltaExpansionError) -> ReplicaError {
        ReplicaError(kind: .leanChangeset(revision: revision, error))
    }

    /// True for a gap (as opposed to a digest mismatch).
    public var isGap: Bool {
        if case .gap = kind { return true }
        return false
    }

    public var description: String {
        switch kind {
        case .gap(let expected, let received):
            "replica: expected revision \(expected) but received \(received); resyncing"
        case .digestMismatch(let revision):
            "replica: the digest of revision \(revision) does not continue this replica's history; resyncing"
        case .leanChangeset(let revision, let error):
            "replica: revision \(revision) arrived lean and does not fit this replica (\(error)); resyncing"
        }
    }
}
