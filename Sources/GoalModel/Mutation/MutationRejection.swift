/// The current state of an entity a rejection refers to, so the client can show what someone else changed.
public enum EntityState: Hashable, Sendable {
    case player(Player)
    case match(Match)
}

/// Why the server refused a mutation: a stable code, a message a person can act on, the conflicting fields
/// and the entity as it is now. Value type, `Sendable`; also the error of a mutation's `SignalProducer`.
public struct MutationRejection: Error, Hashable, Sendable, CustomStringConvertible {
    /// Stable machine-readable reasons, one per rule; the raw values are the wire codes (docs/PROTOCOL.md §4
    /// lists them). A client may switch on them; new rules get new codes, never a reuse of an old one.
    public enum Code: String, Hashable, Sendable, CaseIterable {
        /// A written field changed after the base by another client, to a different value (or a stale delete).
        case conflict
        /// A field of the mutation is malformed (a fraction or exponent in an integer field, a wrong type, an
        /// unknown `op`…): the mutation could not be read, so no domain rule was checked. `fields` names it.
        case invalid
        /// The entity does not exist (never did, or was deleted).
        case notFound = "not_found"
        /// The player is referenced by at least one match and cannot be deleted.
        case playerInUse = "player_in_use"
        /// Another player already has this name (compared case-insensitively, by key).
        case nameTaken = "name_taken"
        /// The name is empty once surrounding whitespace is trimmed.
        case blankName = "blank_name"
        /// The name has more than `PlayerName.maximumLength` characters.
        case nameTooLong = "name_too_long"
        /// The name contains a control, bidi-override or zero-width character.
        case forbiddenCharacter = "forbidden_character"
        /// A create names an entity id that already exists.
        case idTaken = "id_taken"
        /// A side of a match has no player.
        case emptySide = "empty_side"
        /// A player is listed twice on the same side.
        case playerListedTwice = "player_listed_twice"
        /// The same player is listed on both sides.
        case playerOnBothSides = "player_on_both_sides"
        /// A match lists a player id that does not exist.
        case unknownPlayer = "unknown_player"
        /// An increment or a set would leave 0…999.
        case goalsOutOfRange = "goals_out_of_range"
        /// The mutation's `base` is newer than the league's revision (a client cannot have read the future).
        case baseAhead = "base_ahead"
        /// The mutation id was used before with a different payload.
        case idReused = "id_reused"
        /// The mutation id is older than the results the server keeps for this client instance.
        case idExpired = "id_expired"
        /// The token's role does not allow this mutation.
        case unauthorized
    }

    public var code: Code
    public var message: String
    /// Wire names of the fields involved (conflicting fields for `conflict`).
    public var fields: [String]
    /// The entity as it is now, when there is one (always for `conflict`).
    public var current: EntityState?

    public init(code: Code, message: String, fields: [String] = [], current: EntityState? = nil) {
        self.code = code
        self.message = message
        self.fields = fields
        self.current = current
    }

    public var description: String { "\(code.rawValue): \(message)" }
}

/// The result of a mutation, as the exactly-once table stores it and the ack or rejection carries it.
public enum MutationOutcome: Hashable, Sendable {
    /// Committed at this revision.
    case committed(Revision)
    /// Changed nothing; acknowledged at the revision current when it was checked.
    case noop(Revision)
    case rejected(MutationRejection)
}
