import HashTreeCollections

/// Player actions: create, rename, delete.
extension ConflictEngine {
    /// `create_player`: an existing id → `id_taken`; a bad name → that rule's code (`blank_name`,
    /// `name_too_long`, `forbidden_character`);
    /// a name whose key another player holds → `name_taken`. Commits the player and its zero rating.
    static func createPlayer(
        id: PlayerID,
        rawName: String,
        _ context: Context,
        _ state: inout LeagueState
    ) -> ActionResult {
        guard state.players[id] == nil else {
            return .rejected(Rejections.idTaken("player", id: id.description))
        }
        let name: PlayerName
        switch validate(rawName) {
        case .success(let valid): name = valid
        case .failure(let rejection): return .rejected(rejection)
        }
        if let holder = state.player(withNameKey: name.key) {
            return .rejected(nameTaken(name, holder: holder))
        }
        let player = Player(id: id, name: name, created: context.stamp)
        state.insertPlayer(player)
        return .changed([.playerUpserted(player), .ratingUpdated(Rating(playerID: id))])
    }

    /// `rename_player`: a missing player → `not_found`; a bad name → that rule's code; the name changed after the
    /// base by another instance to a different value → `conflict`; the same name → `.noop`; a key another
    /// player holds → `name_taken` (a change of case only, "alice" → "Alice", keeps the key and is fine).
    static func renamePlayer(
        id: PlayerID,
        rawName: String,
        _ context: Context,
        _ state: inout LeagueState
    ) -> ActionResult {
        guard var player = state.players[id] else { return .rejected(Rejections.playerNotFound(id)) }
        let name: PlayerName
        switch validate(rawName) {
        case .success(let valid): name = valid
        case .failure(let rejection): return .rejected(rejection)
        }
        if context.changedByOther(player.nameStamp), player.name != name.value {
            return .rejected(
                Rejections.conflict(
                    [PlayerField.name.rawValue],
                    entity: "player \(id.shortID)",
                    current: .player(player)
                )
            )
        }
        guard player.name != name.value else { return .noop }
        if let holder = state.player(withNameKey: name.key), holder.id != id {
            return .rejected(nameTaken(name, holder: holder))
        }
        player.name = name.value
        player.nameKey = name.key
        player.nameStamp = context.stamp
        state.replacePlayer(player)
        return .changed([.playerUpserted(player)])
    }

    /// `delete_player`: a missing player → `not_found`; the player changed after the base by another instance
    /// → `conflict`; referenced by any match → `player_in_use`. Commits the removal (rating included).
    static func deletePlayer(id: PlayerID, _ context: Context, _ state: inout LeagueState) -> ActionResult {
        guard let player = state.players[id] else { return .rejected(Rejections.playerNotFound(id)) }
        if context.changedByOther(player.created) || context.changedByOther(player.nameStamp) {
            return .rejected(
                Rejections.staleDelete(
                    [PlayerField.name.rawValue],
                    entity: "player \(id.shortID)",
                    current: .player(player)
                )
            )
        }
        let references = state.matchCount(referencing: id)
        guard references == 0 else {
            return .rejected(
                MutationRejection(
                    code: .playerInUse,
                    message: "player \(player.name) plays in \(references) match"
                        + (references == 1 ? "" : "es") + "; delete those first",
                    current: .player(player)
                )
            )
        }
        state.removePlayer(id)
        return .changed([.playerDeleted(id)])
    }

    private static func validate(_ raw: String) -> Result<PlayerName, MutationRejection> {
        do {
            return .success(try PlayerName(validating: raw))
        } catch {
            return .failure(Rejections.badName(error))
        }
    }

    private static func nameTaken(_ name: PlayerName, holder: Player) -> MutationRejection {
        MutationRejection(
            code: .nameTaken,
            message: "the name \"\(name.value)\" is taken by player \"\(holder.name)\" (names compare ignoring case)",
            fields: [PlayerField.name.rawValue]
        )
    }
}
