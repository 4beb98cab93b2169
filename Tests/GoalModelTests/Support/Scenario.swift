import GoalModel
import Testing

/// The revision a step's mutation claims to have read.
enum Base: Sendable, Equatable {
    /// The fixture's revision (8): the client opened its form before any step ran.
    case fixture
    /// The revision current when the step runs: the client saw every earlier step.
    case head
    /// An explicit revision.
    case at(Revision)
}

/// One client action in a scenario.
struct Step: Sendable {
    let instance: ClientInstanceID
    let base: Base
    let action: MutationAction

    init(_ instance: ClientInstanceID, _ base: Base, _ action: MutationAction) {
        self.instance = instance
        self.base = base
        self.action = action
    }
}

/// What the last step of a scenario must yield.
enum Expected: Sendable {
    case commit
    case noop
    /// A rejection with this code, and (when given) exactly these fields.
    case rejected(MutationRejection.Code, fields: [String]? = nil)
}

/// A table row: steps on the standard fixture (every step but the last must commit) → the last step's
/// decision, plus a check of the state afterwards.
struct Scenario: Sendable, CustomTestStringConvertible {
    let name: String
    let steps: [Step]
    let expected: Expected
    let check: @Sendable (LeagueState) -> Bool

    init(
        _ name: String,
        _ steps: Step...,
        expect expected: Expected,
        then check: @escaping @Sendable (LeagueState) -> Bool = { _ in true }
    ) {
        self.name = name
        self.steps = steps
        self.expected = expected
        self.check = check
    }

    var testDescription: String { name }

    /// Runs the scenario and checks the generic guarantees of each kind of decision.
    func verify(sourceLocation: SourceLocation = #_sourceLocation) {
        var league = League.standard()
        for (index, step) in steps.enumerated() {
            let before = league.state
            let base: Revision
            switch step.base {
            case .fixture: base = League.fixtureRevision
            case .head: base = league.state.revision
            case .at(let revision): base = revision
            }
            let decision = league.run(step.action, by: step.instance, base: base)
            guard index == steps.count - 1 else {
                #expect(
                    decision.commit != nil,
                    "setup step \(index) did not commit: \(decision)",
                    sourceLocation: sourceLocation
                )
                continue
            }
            verify(decision, before: before, after: league.state, action: step.action, sourceLocation: sourceLocation)
        }
        #expect(check(league.state), "state check failed for \(name)", sourceLocation: sourceLocation)
    }

    private func verify(
        _ decision: EngineDecision,
        before: LeagueState,
        after: LeagueState,
        action: MutationAction,
        sourceLocation: SourceLocation
    ) {
        switch (expected, decision) {
        case (.commit, .commit(let commit)):
            #expect(commit.revision == before.revision + 1, sourceLocation: sourceLocation)
            #expect(after.revision == commit.revision, sourceLocation: sourceLocation)
        case (.noop, .noop(let revision)):
            #expect(revision == before.revision, sourceLocation: sourceLocation)
            #expect(sameLeague(before, after), "a noop changed the league", sourceLocation: sourceLocation)
        case (.rejected(let code, let fields), .rejected(let rejection)):
            #expect(rejection.code == code, "\(rejection)", sourceLocation: sourceLocation)
            if let fields { #expect(rejection.fields == fields, sourceLocation: sourceLocation) }
            #expect(sameLeague(before, after), "a rejection changed the league", sourceLocation: sourceLocation)
            if code == .conflict {
                #expect(rejection.current != nil, sourceLocation: sourceLocation)
                #expect(rejection.current == currentEntity(of: action, in: after), sourceLocation: sourceLocation)
            }
        default:
            Issue.record("\(name): expected \(expected), got \(decision)", sourceLocation: sourceLocation)
        }
    }

    /// Everything but the exactly-once table.
    private func sameLeague(_ lhs: LeagueState, _ rhs: LeagueState) -> Bool {
        lhs.revision == rhs.revision && lhs.players == rhs.players && lhs.matches == rhs.matches
            && lhs.ratings == rhs.ratings
    }
}

/// The entity an action targets, as it is in `state`.
func currentEntity(of action: MutationAction, in state: LeagueState) -> EntityState? {
    switch action {
    case .createPlayer(let id, _), .renamePlayer(let id, _), .deletePlayer(let id):
        state.player(id).map(EntityState.player)
    case .createMatch(let id, _, _, _, _), .updateMatch(let id, _), .adjustGoals(let id, _, _), .deleteMatch(let id):
        state.match(id).map(EntityState.match)
    }
}

// MARK: - Action shorthands (players and matches by fixture number)

func update(
    _ m: Int,
    home: [Int]? = nil,
    away: [Int]? = nil,
    homeGoals: Int? = nil,
    awayGoals: Int? = nil
) -> MutationAction {
    .updateMatch(
        id: mid(m),
        MatchUpdate(
            homePlayers: home?.map(pid),
            awayPlayers: away?.map(pid),
            homeGoals: homeGoals,
            awayGoals: awayGoals
        )
    )
}

func adjust(_ m: Int, _ side: Side, _ delta: Int) -> MutationAction {
    .adjustGoals(id: mid(m), side: side, delta: delta)
}

func deleteMatch(_ m: Int) -> MutationAction { .deleteMatch(id: mid(m)) }

func createMatch(_ m: Int, _ home: [Int], _ away: [Int], _ homeGoals: Int = 0, _ awayGoals: Int = 0) -> MutationAction {
    .createMatch(
        id: mid(m),
        homePlayers: home.map(pid),
        awayPlayers: away.map(pid),
        homeGoals: homeGoals,
        awayGoals: awayGoals
    )
}

func createPlayer(_ p: Int, _ name: String) -> MutationAction { .createPlayer(id: pid(p), name: name) }

func rename(_ p: Int, _ name: String) -> MutationAction { .renamePlayer(id: pid(p), name: name) }

func deletePlayer(_ p: Int) -> MutationAction { .deletePlayer(id: pid(p)) }

/// The match `m` of `state` has these values (nil: not checked).
func matchIs(_ state: LeagueState, _ m: Int, home: [Int]? = nil, away: [Int]? = nil, goals: (Int, Int)? = nil) -> Bool {
    guard let match = state.match(mid(m)) else { return false }
    if let home, match.homePlayers != home.map(pid) { return false }
    if let away, match.awayPlayers != away.map(pid) { return false }
    if let goals, match.homeGoals != goals.0 || match.awayGoals != goals.1 { return false }
    return true
}
