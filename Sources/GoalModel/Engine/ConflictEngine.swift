import HashTreeCollections

/// The conflict engine: applies one mutation to the league state under docs/RULES.md's "Conflict rules",
/// "Domain rules" and "Exactly once", and says what happened.
///
/// A pure function over value types: no clock, no IO, no locks, `Sendable`. The caller owns the state (the
/// server's engine queue) and calls `apply` serially. Cost is O(size of the mutation) plus O(log n) map
/// operations — never a scan of all players or matches.
///
/// Authorization is NOT checked here: the server must refuse a mutation whose token role does not
/// `Role.permits(_:)` it (`unauthorized`) before calling `apply`, and such a refusal is not recorded.
///
/// Order of checks, for every action:
/// 1. Exactly once: a kept (instance, seq) with the same payload → `.duplicate(original)`; with a different
///    payload → `id_reused`; an expired seq → `id_expired` (see `ClientRecord.isExpired(_:)`). None of these
///    is recorded.
/// 2. `base` newer than the state's revision → `base_ahead` (a client cannot have read the future).
/// 3. The action's own checks (see `ConflictEngine+Players.swift` and `ConflictEngine+Matches.swift`), in
///    this order: existence (`not_found`, or `id_taken` for a create with an existing id), input validity
///    (`blank_name`, `name_too_long`, `forbidden_character`, `goals_out_of_range` for absolute goals),
///    conflicts against `base` (`conflict`), no-op detection (`.noop`), then rules on the merged result
///    (`goals_out_of_range` for increments, `name_taken`, the side rules `empty_side`, `player_listed_twice`,
///    `player_on_both_sides`, `unknown_player`, and `player_in_use`). `invalid` is never the engine's: it is
///    the wire's answer to a mutation whose fields could not be read.
///
/// Every outcome of step 2 and 3 — commit, noop or rejection — is recorded in the client's `ClientRecord`.
public enum ConflictEngine {
    /// Applies a mutation from client instance `mutation.id.instance`.
    ///
    /// - Parameters:
    ///   - mutation: The mutation, with its id, base revision and action.
    ///   - author: The name of the token whose session sent it (carried into the commit).
    ///   - state: The authoritative state. On `.commit` it holds the new revision (previous + 1) and the
    ///     changed entities and ratings; on `.noop` and `.rejected` only the client's exactly-once record
    ///     changed; on `.duplicate`, `id_reused` and `id_expired` nothing changed.
    /// - Returns: The decision; see `EngineDecision`.
    public static func apply(_ mutation: Mutation, author: String, to state: inout LeagueState) -> EngineDecision {
        let fingerprint = PayloadFingerprint(mutation)
        if let record = state.clientRecords[mutation.id.instance] {
            if let entry = record.entry(for: mutation.id.seq) {
                guard entry.fingerprint == fingerprint else { return .rejected(Rejections.idReused(mutation.id)) }
                return .duplicate(entry.outcome)
            }
            if record.isExpired(mutation.id.seq) {
                return .rejected(Rejections.idExpired(mutation.id, oldestKept: record.results.first?.seq ?? 0))
            }
        }

        let decision: EngineDecision
        if mutation.base > state.revision {
            decision = .rejected(Rejections.baseAhead(mutation.base, head: state.revision))
        } else {
            let context = Context(
                mutation: mutation,
                stamp: FieldStamp(revision: state.revision + 1, writer: mutation.id.instance)
            )
            switch applyAction(mutation.action, context, to: &state) {
            case .changed(let changes):
                state.revision = context.stamp.revision
                decision = .commit(
                    Commit(
                        revision: context.stamp.revision,
                        mutationID: mutation.id,
                        author: author,
                        action: mutation.action,
                        changes: changes
                    )
                )
            case .noop:
                decision = .noop(state.revision)
            case .rejected(let rejection):
                decision = .rejected(rejection)
            }
        }
        state.recordResult(of: mutation, fingerprint: fingerprint, outcome: decision.outcome)
        return decision
    }

    /// What an action handler found. A handler changes the state only when it returns `.changed`.
    enum ActionResult {
        case changed([Change])
        case noop
        case rejected(MutationRejection)
    }

    /// What every handler needs besides the action: the mutation (base, writer) and the stamp a write gets.
    struct Context {
        let mutation: Mutation
        /// (next revision, the mutation's instance): what every field this commit changes is stamped with.
        let stamp: FieldStamp

        var base: Revision { mutation.base }
        var instance: ClientInstanceID { mutation.id.instance }

        /// True when a field stamped `stamp` changed after the base by another client instance.
        func changedByOther(_ fieldStamp: FieldStamp) -> Bool {
            fieldStamp.changed(after: base, byOtherThan: instance)
        }
    }

    private static func applyAction(
        _ action: MutationAction,
        _ context: Context,
        to state: inout LeagueState
    ) -> ActionResult {
        switch action {
        case .createPlayer(let id, let name):
            createPlayer(id: id, rawName: name, context, &state)
        case .renamePlayer(let id, let name):
            renamePlayer(id: id, rawName: name, context, &state)
        case .deletePlayer(let id):
            deletePlayer(id: id, context, &state)
        case .createMatch(let id, let homePlayers, let awayPlayers, let homeGoals, let awayGoals):
            createMatch(
                id: id,
                homePlayers: homePlayers,
                awayPlayers: awayPlayers,
                homeGoals: homeGoals,
                awayGoals: awayGoals,
                context,
                &state
            )
        case .updateMatch(let id, let update):
            updateMatch(id: id, update, context, &state)
        case .adjustGoals(let id, let side, let delta):
            adjustGoals(id: id, side: side, delta: delta, context, &state)
        case .deleteMatch(let id):
            deleteMatch(id: id, context, &state)
        }
    }
}
