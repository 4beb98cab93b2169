public import GoalModel
public import GoalReactive

/// A mutation an earlier client left unanswered in the `ClientStateStore`, restored into a new client's outbox.
///
/// Value type, `Sendable`. `outcome` observes the one shared answer (as `GoalClient.submit`'s producer does):
/// starting it never sends anything; the client sends the mutation, with its id, once a session is authenticated.
public struct RestoredMutation: Sendable {
    public let mutation: Mutation
    /// The ack, or a `MutationError` (`.kept` when the client stops before the answer).
    public let outcome: SignalProducer<MutationAck, MutationError>

    public init(mutation: Mutation, outcome: SignalProducer<MutationAck, MutationError>) {
        self.mutation = mutation
        self.outcome = outcome
    }
}
