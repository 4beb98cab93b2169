/// The running check a lean subscriber keeps: every changeset revision must be exactly one more than the last.
///
/// Value type, `Sendable`; pure.
struct SequenceCheck: Sendable, Equatable {
    /// What one revision meant.
    enum Verdict: Equatable, Sendable {
        /// The next revision: accept it.
        case next
        /// At or below the last one: a duplicate (the server promised exactly once).
        case duplicate
        /// Past the next one: revisions are missing (the client must resume).
        case gap(missing: UInt64)
    }

    /// The last revision accepted (or the snapshot / resume point).
    private(set) var revision: UInt64
    private(set) var duplicates = 0
    private(set) var gaps = 0

    init(revision: UInt64 = 0) {
        self.revision = revision
    }

    /// Judges `next` and advances on `.next`.
    mutating func observe(_ next: UInt64) -> Verdict {
        if next == revision + 1 {
            revision = next
            return .next
        }
        if next <= revision {
            duplicates += 1
            return .duplicate
        }
        gaps += 1
        return .gap(missing: next - revision - 1)
    }

    /// Jumps to a snapshot's revision.
    mutating func reset(to revision: UInt64) {
        self.revision = revision
    }
}
