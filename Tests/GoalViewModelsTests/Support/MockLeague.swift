import Foundation
import GoalClient
import GoalModel
import GoalReactive

/// SwiftGoal's `MockStore` fixture on a real in-memory league: players C, A, D, B (created in that order);
/// match 1 [C, A] vs [D, B] 2 : 1, then match 2 [C, B] vs [A, D] 0 : 1 (newest first: match 2, then match 1 —
/// so the list reads like SwiftGoal's fixture order when the matches are created 2 then 1).
struct MockLeague {
    let league = InMemoryLeague()
    let c = PlayerID()
    let a = PlayerID()
    let d = PlayerID()
    let b = PlayerID()
    let match1 = MatchID()
    let match2 = MatchID()
    let seeder = ClientInstanceID("seeder")!

    init() {
        var seq: UInt64 = 0
        func commit(_ action: MutationAction) {
            seq += 1
            let outcome = league.apply(
                Mutation(id: MutationID(instance: seeder, seq: seq), base: league.revision, action: action)
            )
            guard case .committed = outcome else { preconditionFailure("fixture mutation failed: \(outcome)") }
        }
        commit(.createPlayer(id: c, name: "C"))
        commit(.createPlayer(id: a, name: "A"))
        commit(.createPlayer(id: d, name: "D"))
        commit(.createPlayer(id: b, name: "B"))
        // Created oldest first: match 2, then match 1, so match 1 (newest) is row 0.
        commit(.createMatch(id: match2, homePlayers: [c, b], awayPlayers: [a, d], homeGoals: 0, awayGoals: 1))
        commit(.createMatch(id: match1, homePlayers: [c, a], awayPlayers: [d, b], homeGoals: 2, awayGoals: 1))
    }

    /// A store for one client of this league.
    func store(_ instance: String = "viewer-a", role: Role = .admin) -> InMemoryLeagueStore {
        InMemoryLeagueStore(league: league, instance: ClientInstanceID(instance)!, role: role)
    }
}

/// Records every value of a signal or property.
@MainActor
final class Recorder<Value> {
    private(set) var values: [Value] = []
    private var disposable: (any Disposable)?

    init(_ signal: Signal<Value, Never>) {
        disposable = signal.observeValues { [unowned self] in values.append($0) }
    }

    init(_ property: Property<Value>) {
        disposable = property.producer.startWithValues { [unowned self] in values.append($0) }
    }

    /// Returns and forgets the values so far.
    func take() -> [Value] {
        defer { values = [] }
        return values
    }
}

/// Starts a producer and records its outcome.
@MainActor
final class Outcome<Value, Failure: Error> {
    private(set) var values: [Value] = []
    private(set) var error: Failure?
    private(set) var completed = false

    init(_ producer: SignalProducer<Value, Failure>) {
        producer.start { [unowned self] event in
            switch event {
            case .value(let value): values.append(value)
            case .failed(let error): self.error = error
            case .completed: completed = true
            case .interrupted: break
            }
        }
    }
}
