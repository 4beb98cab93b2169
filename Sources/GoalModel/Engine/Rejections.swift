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
            code: .invalid,
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
}
