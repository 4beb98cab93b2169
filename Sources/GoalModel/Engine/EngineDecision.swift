/// What the conflict engine decided for one mutation. Value type, `Sendable`.
///
/// Who persists what: `.commit`, `.noop` and `.rejected` (except `id_reused` and `id_expired`) have been
/// recorded in the client's `ClientRecord`, which the store persists with the next batch; `.duplicate` and
/// the two id rejections changed nothing at all. Nothing that reflects a decision may leave the process before
/// the revision it depends on is durable (docs/RULES.md "Applied vs durable").
public enum EngineDecision: Hashable, Sendable {
    /// The mutation changed the league: the state is now at `commit.revision` (= previous revision + 1).
    /// Ack `{revision}` after the changeset.
    case commit(Commit)
    /// The mutation changes nothing (every write equals the current value); no commit, the revision is
    /// unchanged. Ack `{revision: current, noop: true}`.
    case noop(Revision)
    /// The mutation was refused (`conflict`, `invalid`, `not_found`, `player_in_use`, `name_taken`,
    /// `goals_out_of_range`, `id_reused`, `id_expired`); the league is unchanged.
    case rejected(MutationRejection)
    /// The mutation id was seen before with the same payload: answer with this ORIGINAL outcome (ack, noop or
    /// rejection), once it is durable. Nothing changed and nothing was recorded.
    case duplicate(MutationOutcome)

    /// The outcome as the exactly-once table stores it and the ack or rejection reports it.
    public var outcome: MutationOutcome {
        switch self {
        case .commit(let commit): .committed(commit.revision)
        case .noop(let revision): .noop(revision)
        case .rejected(let rejection): .rejected(rejection)
        case .duplicate(let original): original
        }
    }
}
