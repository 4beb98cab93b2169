/// The current state of an entity a rejection refers to, so the client can show what someone else changed.
public enum EntityState: Hashable, Sendable {
    case player(Player)
    case match(Match)
}

/// Why the server refused a mutation: a stable code, a message a person can act on, the conflicting fields
/// and the entity as it is now. Value type, `Sendable`; also the error of a mutation's `SignalProducer`.
public struct MutationRejection: Error, Hashable, Sendable, CustomStringConvertible {
    /// Stable machine-readable reasons; the raw values are the wire codes.
    public enum Code: String, Hashable, Sendable, CaseIterable {
        /// A written field changed after the base by another client, to a different value (or a stale delete).
        case conflict
        /// The result would break a domain rule (bad name, bad sides, unknown player id, existing id…).
        case invalid
        /// The entity does not exist (never did, or was deleted).
        case notFound = "not_found"
        /// The player is referenced by at least one match and cannot be deleted.
        case playerInUse = "player_in_use"
        /// Another player already has this name (compared case-insensitively, by key).
        case nameTaken = "name_taken"
        /// An increment or a set would leave 0…999.
        case goalsOutOfRange = "goals_out_of_range"
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
