import GoalModel

/// A mutation as a session hands it to the engine: the mutation with its id and base, the author and role of the
/// session's token, and where the answer goes. Value type, `Sendable`.
struct MutationRequest: Sendable {
    let mutation: Mutation
    /// The token's name; becomes the changeset's author.
    let author: String
    let role: Role
    let replyTo: ReplyAddress
}
