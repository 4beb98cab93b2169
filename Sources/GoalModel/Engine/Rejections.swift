/// The rejections the engine builds, with messages a person can act on. Internal: callers see
/// `MutationRejection` values only.
enum Rejections {
    static func idReused(_ id: MutationID) -> MutationRejection {
        MutationRejection(
            code: .idReused,
            message: "mutation id \(id) was already used with a different payload; mint a new id for a new mutation"
        )
    }

    static func idExpired(_ id: MutationID, oldestKept: UInt64) -> MutationRejection {
        MutationRejection(
            code: .idExpired,
            message: "mutation id \(id) is older than the results kept for this client (oldest kept seq: "
                + "\(oldestKept)); its outcome is unknown — reload and check before retrying with a new id"
        )
    }

    static func baseAhead(_ base: Revision, head: Revision) -> MutationRejection {
        MutationRejection(
            code: .baseAhead,
            message: "base revision \(base) is ahead of the league's revision \(head)"
        )
    }

    static func playerNotFound(_ id: PlayerID) -> MutationRejection {
        MutationRejection(code: .notFound, message: "player \(id) does not exist (never created or deleted)")
    }

    static func matchNotFound(_ id: MatchID) -> MutationRejection {
        MutationRejection(code: .notFound, message: "match \(id) does not exist (never created or deleted)")
    }

    static func conflict(_ fields: [String], entity: String, current: EntityState) -> MutationRejection {
        MutationRejection(
            code: .conflict,
            message: "another client changed \(fields.joined(separator: ", ")) of \(entity) since you read it; "
                + "review the current values and try again",
            fields: fields,
            current: current
        )
    }

    static func staleDelete(_ fields: [String], entity: String, current: EntityState) -> MutationRejection {
        MutationRejection(
            code: .conflict,
            message: "another client changed \(entity) since you read it; review it before deleting",
            fields: fields,
            current: current
        )
    }

    /// A create whose entity id is (or was) in use.
    static func idTaken(_ entity: String, id: String) -> MutationRejection {
        MutationRejection(code: .idTaken, message: "a \(entity) with id \(id) already exists", fields: ["id"])
    }

    /// A name that breaks one of `PlayerName`'s rules, with that rule's own code.
    static func badName(_ error: PlayerNameError) -> MutationRejection {
        MutationRejection(code: error.rejectionCode, message: error.description, fields: [PlayerField.name.rawValue])
    }
}
