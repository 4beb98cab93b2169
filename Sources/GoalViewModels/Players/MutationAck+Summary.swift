import GoalClient

extension MutationAck {
    /// "committed at r9", or "no change (r9)" for a no-op: the words `goal-client` prints after a change.
    var summary: String {
        noop ? "no change (r\(revision))" : "committed at r\(revision)"
    }
}
