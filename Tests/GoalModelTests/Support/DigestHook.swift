import GoalModel
import GoalWire

/// The chained digest used by the randomized test: d_R = SHA-256(d_R−1 ‖ payload_R), from GoalWire.
/// (The one place to change if GoalWire's digest entry point moves.)
func chainedDigest(previous: Digest, changeset: Changeset) -> Digest {
    ChangesetFrame.encode(changeset, previousDigest: previous).digest
}
