public import GoalModel

/// The input of `ManagePlayersViewModel.renameAction`: a player as the user saw it and the new name.
/// Value type, `Sendable`.
public struct PlayerRename: Hashable, Sendable {
    public let player: ShownEntity<PlayerID>
    public let name: String

    /// - Parameters:
    ///   - player: The player, with the revision the user saw it at (the mutation's base).
    ///   - name: The new name, as typed.
    public init(player: ShownEntity<PlayerID>, name: String) {
        self.player = player
        self.name = name
    }
}
