import GoalModel
import GoalWire

/// A mutation as a session hands it to the engine: the mutation with its id and base, the author and role of the
/// session's token, and where the answer goes. Value type, `Sendable`.
struct MutationRequest: Sendable {
    let mutation: Mutation
    /// The token's name; becomes the changeset's author.
    let author: String
    let role: Role
    let replyTo: ReplyAddress
    /// Set for a mutation of the HTTP API (`RESTAPI/`): the answer goes to this callback once durable instead of
    /// to a session (`replyTo` is then ignored).
    var direct: DirectReply? = nil
}

/// Where the answer of a mutation without a session goes (the HTTP API): called once, on no particular thread,
/// after the batch deciding it is durable, with the answer and the league state after that batch.
struct DirectReply: Sendable {
    let deliver: @Sendable (ServerMessage, LeagueState) -> Void
}
