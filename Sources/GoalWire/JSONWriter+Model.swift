internal import GoalModel

// The writers of the model types: the one encoder of every model value (GoalModel has no encoding). Keys in
// sorted byte order, canonical as `JSONWriter` describes; `ModelReader` reads every shape written here.

extension JSONWriter {
    mutating func playerID(_ id: PlayerID) { uuid(id.uuid) }

    mutating func matchID(_ id: MatchID) { uuid(id.uuid) }

    mutating func playerIDs(_ ids: [PlayerID]) {
        byte(UInt8(ascii: "["))
        for (index, id) in ids.enumerated() {
            if index > 0 { byte(UInt8(ascii: ",")) }
            uuid(id.uuid)
        }
        byte(UInt8(ascii: "]"))
    }

    /// `{"by":"instance","rev":R}`
    mutating func stamp(_ stamp: FieldStamp) {
        raw(#"{"by":"#)
        string(stamp.writer.rawValue)
        raw(#","rev":"#)
        integer(stamp.revision)
        byte(UInt8(ascii: "}"))
    }

    /// A player object; `kind` (for a change or an entity state) is inserted at its sorted position.
    mutating func player(_ player: Player, kind: StaticString? = nil) {
        raw(#"{"created":"#)
        stamp(player.created)
        raw(#","id":"#)
        uuid(player.id.uuid)
        if let kind {
            raw(#","kind":"#)
            raw(kind)
        }
        raw(#","name":"#)
        string(player.name)
        raw(#","name_key":"#)
        string(player.nameKey)
        raw(#","name_stamp":"#)
        stamp(player.nameStamp)
        byte(UInt8(ascii: "}"))
    }

    /// A match object; `kind` is inserted at its sorted position.
    mutating func match(_ match: Match, kind: StaticString? = nil) {
        raw(#"{"away_goals":"#)
        integer(match.awayGoals)
        raw(#","away_players":"#)
        playerIDs(match.awayPlayers)
        raw(#","created":"#)
        stamp(match.created)
        raw(#","home_goals":"#)
        integer(match.homeGoals)
        raw(#","home_players":"#)
        playerIDs(match.homePlayers)
        raw(#","id":"#)
        uuid(match.id.uuid)
        if let kind {
            raw(#","kind":"#)
            raw(kind)
        }
        raw(#","stamps":{"away_goals":"#)
        stamp(match.stamps.awayGoals)
        raw(#","away_players":"#)
        stamp(match.stamps.awayPlayers)
        raw(#","home_goals":"#)
        stamp(match.stamps.homeGoals)
        raw(#","home_players":"#)
        stamp(match.stamps.homePlayers)
        raw("}}")
    }

    /// A rating object; `kind` is inserted at its sorted position.
    mutating func rating(_ rating: Rating, kind: StaticString? = nil) {
        raw(#"{"drawn":"#)
        integer(rating.drawn)
        if let kind {
            raw(#","kind":"#)
            raw(kind)
        }
        raw(#","lost":"#)
        integer(rating.lost)
        raw(#","played":"#)
        integer(rating.played)
        raw(#","player":"#)
        uuid(rating.playerID.uuid)
        raw(#","points":"#)
        integer(rating.points)
        raw(#","won":"#)
        integer(rating.won)
        byte(UInt8(ascii: "}"))
    }

    /// One change: a flat object with its `kind`.
    mutating func change(_ change: Change) {
        switch change {
        case .playerUpserted(let value): player(value, kind: #""player""#)
        case .playerDeleted(let id):
            raw(#"{"id":"#)
            uuid(id.uuid)
            raw(#","kind":"player_deleted"}"#)
        case .matchUpserted(let value): match(value, kind: #""match""#)
        case .matchDeleted(let id):
            raw(#"{"id":"#)
            uuid(id.uuid)
            raw(#","kind":"match_deleted"}"#)
        case .ratingUpdated(let value): rating(value, kind: #""rating""#)
        }
    }

    /// The current entity of a rejection: a flat object with its `kind`.
    mutating func entityState(_ state: EntityState) {
        switch state {
        case .player(let value): player(value, kind: #""player""#)
        case .match(let value): match(value, kind: #""match""#)
        }
    }

    /// A mutation action as a canonical object (sorted keys, `op` among them).
    mutating func action(_ action: MutationAction) {
        byte(UInt8(ascii: "{"))
        actionMembers(action)
        byte(UInt8(ascii: "}"))
    }

    /// The members of a mutation action without braces, in sorted key order.
    mutating func actionMembers(_ action: MutationAction) {
        switch action {
        case .createPlayer(let id, let name):
            raw(#""id":"#)
            uuid(id.uuid)
            raw(#","name":"#)
            string(name)
            raw(#","op":"create_player""#)
        case .renamePlayer(let id, let name):
            raw(#""id":"#)
            uuid(id.uuid)
            raw(#","name":"#)
            string(name)
            raw(#","op":"rename_player""#)
        case .deletePlayer(let id):
            raw(#""id":"#)
            uuid(id.uuid)
            raw(#","op":"delete_player""#)
        case .createMatch(let id, let homePlayers, let awayPlayers, let homeGoals, let awayGoals):
            raw(#""away_goals":"#)
            integer(awayGoals)
            raw(#","away_players":"#)
            playerIDs(awayPlayers)
            raw(#","home_goals":"#)
            integer(homeGoals)
            raw(#","home_players":"#)
            playerIDs(homePlayers)
            raw(#","id":"#)
            uuid(id.uuid)
            raw(#","op":"create_match""#)
        case .updateMatch(let id, let update):
            matchFields(update)
            raw(#""id":"#)
            uuid(id.uuid)
            raw(#","op":"update_match""#)
        case .adjustGoals(let id, let side, let delta):
            raw(#""delta":"#)
            integer(delta)
            raw(#","id":"#)
            uuid(id.uuid)
            raw(#","op":"adjust_goals","side":"#)
            raw(side == .home ? #""home""# : #""away""#)
        case .deleteMatch(let id):
            raw(#""id":"#)
            uuid(id.uuid)
            raw(#","op":"delete_match""#)
        }
    }

    /// The written match fields in sorted key order, each followed by a comma (an `update_match` action, a lean
    /// `match` change): `"away_goals":…,`? `"away_players":…,`? `"home_goals":…,`? `"home_players":…,`?
    mutating func matchFields(_ update: MatchUpdate) {
        if let goals = update.awayGoals {
            raw(#""away_goals":"#)
            integer(goals)
            byte(UInt8(ascii: ","))
        }
        if let players = update.awayPlayers {
            raw(#""away_players":"#)
            playerIDs(players)
            byte(UInt8(ascii: ","))
        }
        if let goals = update.homeGoals {
            raw(#""home_goals":"#)
            integer(goals)
            byte(UInt8(ascii: ","))
        }
        if let players = update.homePlayers {
            raw(#""home_players":"#)
            playerIDs(players)
            byte(UInt8(ascii: ","))
        }
    }

    /// The members of a rejection without braces: `code`, `current`?, `fields`, `message` (sorted).
    /// `,"seq":S` (when known) and `,"retry_after_ms":R`: the members `rate_limited` and `overloaded` share.
    mutating func pacingMembers(seq: UInt64?, retryAfterMilliseconds: Int) {
        if let seq {
            raw(#","seq":"#)
            integer(seq)
        }
        raw(#","retry_after_ms":"#)
        integer(retryAfterMilliseconds)
    }

    mutating func rejectionMembers(_ rejection: MutationRejection) {
        raw(#""code":"#)
        string(rejection.code.rawValue)
        if let current = rejection.current {
            raw(#","current":"#)
            entityState(current)
        }
        raw(#","fields":"#)
        strings(rejection.fields)
        raw(#","message":"#)
        string(rejection.message)
    }

    /// An outcome as the exactly-once record keeps it: `{"outcome":"committed"|"noop","revision":R}`, or the
    /// rejection's members followed by `"outcome":"rejected"` (sorted order).
    mutating func outcome(_ outcome: MutationOutcome) {
        switch outcome {
        case .committed(let revision):
            raw(#"{"outcome":"committed","revision":"#)
            integer(revision)
        case .noop(let revision):
            raw(#"{"outcome":"noop","revision":"#)
            integer(revision)
        case .rejected(let rejection):
            byte(UInt8(ascii: "{"))
            rejectionMembers(rejection)
            raw(#","outcome":"rejected""#)
        }
        byte(UInt8(ascii: "}"))
    }
}
