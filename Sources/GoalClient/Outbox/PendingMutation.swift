public import GoalModel

/// A mutation the client created and the server has not answered yet. Value type, `Sendable`.
public struct PendingMutation: Hashable, Sendable, Identifiable {
    public var mutation: Mutation
    /// True once sent on the current connection (it is re-sent, with the same id, after a reconnect).
    public var isSent: Bool

    public init(mutation: Mutation, isSent: Bool) {
        self.mutation = mutation
        self.isSent = isSent
    }

    public var id: MutationID { mutation.id }

    /// The player the mutation writes, if any.
    public var playerID: PlayerID? {
        switch mutation.action {
        case .createPlayer(let id, _), .renamePlayer(let id, _), .deletePlayer(let id): id
        default: nil
        }
    }

    /// The match the mutation writes, if any.
    public var matchID: MatchID? {
        switch mutation.action {
        case .createMatch(let id, _, _, _, _), .updateMatch(let id, _), .adjustGoals(let id, _, _),
            .deleteMatch(let id):
            id
        default: nil
        }
    }
}
