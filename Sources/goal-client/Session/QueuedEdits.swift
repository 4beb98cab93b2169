import Foundation
import GoalClient
import GoalCommandLine
import GoalModel
import GoalReactive
import GoalViewModels

/// Edits an earlier goal-client run queued (the server was unreachable, or its answer never came) and this run's
/// client restored: they are sent first, with their original ids, and each outcome is reported on standard error.
///
/// Stateless functions; call them from any task.
enum QueuedEdits {
    /// Waits (at most `window` seconds in all) for the answers to the restored mutations and reports each one.
    /// Unanswered ones stay queued for the next run.
    static func report(_ client: GoalClient, window: TimeInterval) async {
        let restored = client.restoredMutations
        guard !restored.isEmpty else { return }
        let deadline = Date().addingTimeInterval(window)
        for entry in restored {
            let outcome = await answer(entry, until: deadline)
            let replica = client.replica.value
            Console.error("goal-client: queued \(describe(entry.mutation, in: replica)): \(text(outcome, replica))")
        }
    }

    /// The answer, or nil when none came before `deadline`.
    private static func answer(
        _ entry: RestoredMutation,
        until deadline: Date
    ) async -> Result<MutationAck, MutationError>? {
        let disposable = SerialDisposable()
        defer { disposable.dispose() }
        return await withCheckedContinuation { continuation in
            let box = OnceBox<Result<MutationAck, MutationError>?, Never>(continuation)
            disposable.inner = entry.outcome.startWithResult { box.resume(.success($0)) }
            let wait = max(deadline.timeIntervalSinceNow, 0)
            DispatchQueue.global().asyncAfter(deadline: .now() + wait) { box.resume(.success(nil)) }
        }
    }

    /// The outcome for people; players and matches a refusal names by id are named from `replica`.
    private static func text(_ outcome: Result<MutationAck, MutationError>?, _ replica: ReplicaState) -> String {
        switch outcome {
        case .success(let ack): LeagueFormat.ackText(ack)
        case .failure(let error):
            if let rejection = error.rejection {
                "refused (\(rejection.code.rawValue)): \(RefusalText.naming(rejection.message, in: replica))"
            } else {
                RefusalText.naming(error.description, in: replica)
            }
        case nil: "no answer yet; it stays queued and the next run sends it again (same id)"
        }
    }

    /// "edit 3f2c…#4 (score home +1, match 3f2a9c1e (Alice vs Bob))": what a queued mutation does, for people; a
    /// match reads as everywhere else (`EntityNaming.matchLabel`: short id and players).
    static func describe(_ mutation: Mutation, in replica: ReplicaState) -> String {
        let what: String
        switch mutation.action {
        case .createPlayer(_, let name): what = "add player \(TerminalText.escape(name))"
        case .renamePlayer(let id, let name):
            what = "rename player \(playerName(id, replica)) to \(TerminalText.escape(name))"
        case .deletePlayer(let id): what = "delete player \(playerName(id, replica))"
        case .createMatch(let id, let home, let away, _, _):
            let label = EntityNaming.matchLabel(id, homePlayers: home, awayPlayers: away, in: replica)
            what = "add match \(TerminalText.escape(label))"
        case .updateMatch(let id, _): what = "edit match \(matchLabel(id, replica))"
        case .adjustGoals(let id, let side, let delta):
            what = "score \(side.rawValue) \(delta > 0 ? "+" : "")\(delta), match \(matchLabel(id, replica))"
        case .deleteMatch(let id): what = "delete match \(matchLabel(id, replica))"
        }
        return "edit \(mutation.id) (\(what))"
    }

    private static func playerName(_ id: PlayerID, _ replica: ReplicaState) -> String {
        replica.players[id].map { TerminalText.escape($0.name) } ?? id.shortID
    }

    /// `3f2a9c1e (Alice vs Bob)`, or the short id alone for a match the replica no longer holds.
    private static func matchLabel(_ id: MatchID, _ replica: ReplicaState) -> String {
        replica.matches[id].map { TerminalText.escape(EntityNaming.matchLabel($0, in: replica)) } ?? id.shortID
    }
}
