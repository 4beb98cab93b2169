import HashTreeCollections

/// The engine's write primitives. Each keeps the derived parts (ratings, name index, match counts) in step
/// with the entity it changes, in O(size of the entity). They do not validate: the engine checks first.
extension LeagueState {
    /// Inserts a new player with a zero rating.
    mutating func insertPlayer(_ player: Player) {
        players[player.id] = player
        playerIDsByNameKey[player.nameKey] = player.id
        ratings[player.id] = Rating(playerID: player.id)
    }

    /// Replaces an existing player (a rename), moving its name key.
    mutating func replacePlayer(_ player: Player) {
        if let old = players[player.id], old.nameKey != player.nameKey {
            playerIDsByNameKey[old.nameKey] = nil
        }
        players[player.id] = player
        playerIDsByNameKey[player.nameKey] = player.id
    }

    /// Removes an unreferenced player with its rating and name key.
    mutating func removePlayer(_ id: PlayerID) {
        guard let old = players.removeValue(forKey: id) else { return }
        playerIDsByNameKey[old.nameKey] = nil
        ratings[id] = nil
        matchCounts[id] = nil
    }

    /// Inserts, replaces (`old` non-nil, `new` non-nil) or removes (`new` nil) a match, moving its outcome
    /// from the old players' ratings to the new players'.
    ///
    /// - Returns: The ratings of old ∪ new players after the change: old players first (home, then away),
    ///   then new players not already listed (home, then away). This is the order of a commit's
    ///   `.ratingUpdated` changes.
    mutating func writeMatch(old: Match?, new: Match?) -> [Rating] {
        if let old { count(old, sign: -1) }
        if let new {
            matches[new.id] = new
            count(new, sign: 1)
        } else if let old {
            matches[old.id] = nil
        }
        var touched: [PlayerID] = old?.allPlayers ?? []
        var seen = Set(touched)
        for id in new?.allPlayers ?? [] where seen.insert(id).inserted {
            touched.append(id)
        }
        return touched.compactMap { ratings[$0] }
    }

    /// Adds (`sign` = 1) or removes (`sign` = -1) a match's outcome and references.
    mutating func count(_ match: Match, sign: Int) {
        for side in Side.allCases {
            let outcome = match.outcome(for: side)
            for id in match.players(side) {
                ratings[id]?.record(outcome, sign: sign)
                let count = (matchCounts[id] ?? 0) + sign
                matchCounts[id] = count == 0 ? nil : count
            }
        }
    }

    /// Records a processed mutation's result in its client's exactly-once record.
    mutating func recordResult(of mutation: Mutation, fingerprint: PayloadFingerprint, outcome: MutationOutcome) {
        let instance = mutation.id.instance
        let entry = ClientRecord.Entry(seq: mutation.id.seq, fingerprint: fingerprint, outcome: outcome)
        if clientRecords[instance] == nil {
            clientRecords[instance] = ClientRecord(instance: instance)
        }
        clientRecords[instance]?.record(entry)
    }
}
