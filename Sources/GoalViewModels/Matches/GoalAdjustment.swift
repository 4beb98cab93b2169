public import GoalModel

/// One press of "+" or "−" on a match of the list: add `delta` goals to one side of the match `match`.
/// Value type, `Sendable`; the input of `MatchesViewModel.adjustGoalsAction`.
public struct GoalAdjustment: Hashable, Sendable {
    public let match: MatchID
    public let side: Side
    /// The signed increment (concurrent increments all count; PROTOCOL.md `adjust_goals`).
    public let delta: Int

    /// - Parameters:
    ///   - match: The match to score on.
    ///   - side: The side whose goals change.
    ///   - delta: The signed increment.
    public init(match: MatchID, side: Side, delta: Int) {
        self.match = match
        self.side = side
        self.delta = delta
    }
}
