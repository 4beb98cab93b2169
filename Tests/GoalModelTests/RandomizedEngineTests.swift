import Foundation
import GoalModel
import GoalTestSlots
import Testing

/// Many simulated clients with stale views interleave random mutations (and retries, reused ids, held-back
/// sends); every decision, the final state, the gap-free revisions and the digest chain must agree with
/// `ReferenceModel`, a naive oracle that shares no code with the engine.
@Suite("Conflict engine against a naive oracle", .slotted)
struct RandomizedEngineTests {
    static let steps = 2_000

    @Test("Random interleavings agree with the oracle", arguments: 0..<20)
    func agreesWithOracle(seed: UInt64) throws {
        var simulation = Simulation(seed: seed)
        for _ in 0..<RandomizedEngineTests.steps {
            try simulation.step()
        }
        try simulation.compareFinalState()
        #expect(simulation.commits > 200, "the mix should commit often (\(simulation.commits))")
        #expect(simulation.rejections > 100, "the mix should reject often (\(simulation.rejections))")
        #expect(simulation.duplicates > 20, "the mix should retry (\(simulation.duplicates))")
    }
}

/// Thrown to stop a seed at its first divergence (the issue is already recorded).
private struct Divergence: Error {}

/// SplitMix64: a small deterministic generator.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 &+ 1 }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

private struct SimulatedClient {
    let instance: ClientInstanceID
    var seq: UInt64 = 0
    /// The client's possibly stale copy of the league; its revision is the base of what it mints.
    var view = ReferenceModel()
    var sent: [Mutation] = []
    var held: [Mutation] = []
}

private struct Simulation {
    var rng: SplitMix64
    var state = LeagueState()
    /// Follows `state` only by replaying each commit's changeset, as a goald node sharing a store does.
    var replayed = LeagueState()
    var oracle = ReferenceModel()
    var clients: [SimulatedClient]
    var engineDigest = Digest.genesis
    var oracleDigest = Digest.genesis
    var nextEntity = 100
    var commits = 0, rejections = 0, duplicates = 0

    static let names =
        [
            "Alice", "alice", "ALICE ", "Bob", "bob", "Carol", "Dave", "Émile", "E\u{301}mile", "Zoë", "x", "", "   ",
            "Bad\u{200B}name", "\u{202E}evil", "👩‍💻", String(repeating: "z", count: 65),
        ] + (1...30).map { "P\($0)" }

    init(seed: UInt64) {
        rng = SplitMix64(seed: seed)
        clients = (0..<6).map { SimulatedClient(instance: ClientInstanceID("client-\($0)")!) }
    }

    static func time(_ revision: Revision) -> Timestamp {
        Timestamp(millisecondsSince1970: 1_700_000_000_000 + Int64(revision))
    }

    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &rng) < percent }

    mutating func step() throws {
        let c = Int.random(in: 0..<clients.count, using: &rng)
        if chance(15) { clients[c].view = oracle }
        let mutation: Mutation
        if chance(8), let old = clients[c].sent.randomElement(using: &rng) {
            mutation = old  // a retry (possibly of an expired id)
        } else if chance(2), let old = clients[c].sent.randomElement(using: &rng) {
            mutation = Mutation(id: old.id, base: old.base, action: randomAction(clients[c].view))  // reused id
        } else if chance(4), !clients[c].held.isEmpty {
            mutation = clients[c].held.remove(at: Int.random(in: 0..<clients[c].held.count, using: &rng))
        } else {
            clients[c].seq += 1
            let base = chance(1) ? clients[c].view.revision + 1 : clients[c].view.revision
            let minted = Mutation(
                id: MutationID(instance: clients[c].instance, seq: clients[c].seq),
                base: base,
                action: randomAction(clients[c].view)
            )
            if chance(4) {
                clients[c].held.append(minted)
                return
            }
            mutation = minted
        }
        clients[c].sent.append(mutation)
        try send(mutation)
    }

    mutating func send(_ mutation: Mutation) throws {
        let author = "token-\(mutation.id.instance.rawValue)"
        let revisionBefore = state.revision
        let decision = ConflictEngine.apply(mutation, author: author, to: &state)
        let expected = oracle.apply(mutation, author: author, time: Simulation.time)
        switch (decision, expected) {
        case (.commit(let commit), .commit(let changeset)):
            commits += 1
            #expect(commit.revision == revisionBefore + 1, "revisions are gap-free")
            let actual = commit.changeset(time: Simulation.time(commit.revision), digest: .genesis)
            try #require(actual == changeset, "commit differs for \(mutation)")
            // Every engine commit has a lean form, and a replica at the revision before expands it back whole.
            let delta = try #require(ChangesetDelta(actual), "no lean form for \(mutation)")
            try #require(try delta.expand(in: replayed) == actual, "lean \(mutation)")
            try replayed.apply(actual)
            engineDigest = chainedDigest(previous: engineDigest, changeset: actual)
            oracleDigest = chainedDigest(previous: oracleDigest, changeset: changeset)
            try #require(engineDigest == oracleDigest)
        case (.noop(let revision), .noop(let expectedRevision)):
            try #require(revision == expectedRevision)
        case (.rejected(let rejection), .rejected(let code, let fields, let current)):
            rejections += 1
            try #require(oracleCode(rejection.code) == code, "\(rejection) for \(mutation)")
            if code != .invalid { try #require(rejection.fields == fields, "\(rejection) for \(mutation)") }
            try #require(rejection.current == current, "\(rejection) for \(mutation)")
            try #require(!rejection.message.isEmpty)
        case (.duplicate(let outcome), .duplicate(let original)):
            duplicates += 1
            try #require(normalized(outcome) == original)
        default:
            Issue.record("engine \(decision) but oracle \(expected) for \(mutation)")
            throw Divergence()
        }
        #expect(state.revision == oracle.revision)
    }

    func compareFinalState() throws {
        var replayed = self.replayed
        for record in state.allClientRecords { replayed.replaceClientRecord(record) }
        #expect(replayed == state, "replaying the changesets rebuilds the same state, derived indexes included")
        #expect(state.revision == oracle.revision)
        #expect(state.revision == Revision(commits))
        #expect(
            Dictionary(uniqueKeysWithValues: state.allPlayers.map { ($0.id, $0) })
                == Dictionary(uniqueKeysWithValues: oracle.players.keys.map { ($0, oracle.player($0)!) })
        )
        #expect(
            Dictionary(uniqueKeysWithValues: state.allMatches.map { ($0.id, $0) })
                == Dictionary(uniqueKeysWithValues: oracle.matches.keys.map { ($0, oracle.match($0)!) })
        )
        #expect(
            Dictionary(uniqueKeysWithValues: state.allRatings.map { ($0.playerID, $0) })
                == Dictionary(uniqueKeysWithValues: oracle.players.keys.map { ($0, oracle.rating($0)) })
        )
        #expect(state.rankings().map(\.playerID) == oracle.rankings())
        for (instance, processed) in oracle.history {
            let record = try #require(state.clientRecord(for: instance))
            #expect(record.lastSeq == processed.keys.max())
            let kept = processed.keys.sorted().suffix(ReferenceModel.kept)
            #expect(record.results.map(\.seq) == Array(kept))
            #expect(record.results.map { normalized($0.outcome) } == kept.map { processed[$0]!.outcome })
        }
        #expect(state.allClientRecords.count == oracle.history.count)
        // A rebuild from the persisted parts is the same state.
        let rebuilt = try LeagueState(
            revision: state.revision,
            players: Array(state.allPlayers),
            matches: Array(state.allMatches),
            clientRecords: Array(state.allClientRecords)
        )
        #expect(rebuilt == state)
    }

    private func normalized(_ outcome: MutationOutcome) -> MutationOutcome {
        guard case .rejected(var rejection) = outcome else { return outcome }
        rejection.message = ""
        rejection.code = oracleCode(rejection.code)
        if rejection.code == .invalid { rejection.fields = [] }
        return .rejected(rejection)
    }

    /// The oracle names every side rule `invalid` (see `ReferenceModel.sidesInvalid`).
    private func oracleCode(_ code: MutationRejection.Code) -> MutationRejection.Code {
        switch code {
        case .emptySide, .playerListedTwice, .playerOnBothSides, .unknownPlayer: .invalid
        default: code
        }
    }

    // MARK: Random actions from a client's view

    mutating func freshID() -> Int {
        nextEntity += 1
        return nextEntity
    }

    mutating func somePlayer(_ view: ReferenceModel) -> PlayerID {
        if chance(5) || view.players.isEmpty {
            return chance(50) ? pid(freshID()) : pid(Int.random(in: 100...nextEntity, using: &rng))
        }
        return view.playerOrder[Int.random(in: 0..<view.playerOrder.count, using: &rng)]
    }

    mutating func someMatch(_ view: ReferenceModel) -> MatchID {
        if chance(4) || view.matches.isEmpty { return mid(Int.random(in: 100...nextEntity, using: &rng)) }
        return view.matchOrder[Int.random(in: 0..<view.matchOrder.count, using: &rng)]
    }

    mutating func someSide(_ view: ReferenceModel) -> [PlayerID] {
        let count = chance(3) ? 0 : Int.random(in: 1...2, using: &rng)
        return (0..<count).map { _ in somePlayer(view) }
    }

    mutating func someGoals() -> Int {
        if chance(3) { return [-1, 1000, 999, 998].randomElement(using: &rng)! }
        return Int.random(in: 0...4, using: &rng)
    }

    mutating func randomAction(_ view: ReferenceModel) -> MutationAction {
        let name = Simulation.names.randomElement(using: &rng)!
        switch Int.random(in: 0..<100, using: &rng) {
        case 0..<12:
            return .createPlayer(id: chance(3) ? somePlayer(view) : pid(freshID()), name: name)
        case 12..<20:
            return .renamePlayer(id: somePlayer(view), name: name)
        case 20..<26:
            return .deletePlayer(id: somePlayer(view))
        case 26..<44:
            let id = chance(2) ? someMatch(view) : mid(freshID())
            return .createMatch(
                id: id,
                homePlayers: someSide(view),
                awayPlayers: someSide(view),
                homeGoals: someGoals(),
                awayGoals: someGoals()
            )
        case 44..<66:
            let id = someMatch(view)
            let current = view.matches[id]
            var update = MatchUpdate()
            if chance(30) { update.homePlayers = chance(30) ? current?.home : someSide(view) }
            if chance(30) { update.awayPlayers = chance(30) ? current?.away : someSide(view) }
            if chance(50) { update.homeGoals = chance(30) ? current?.homeGoals : someGoals() }
            if chance(50) { update.awayGoals = chance(30) ? current?.awayGoals : someGoals() }
            return .updateMatch(id: id, update)
        case 66..<88:
            let delta = chance(3) ? [1000, -1000, 0].randomElement(using: &rng)! : Int.random(in: -2...3, using: &rng)
            return .adjustGoals(id: someMatch(view), side: chance(50) ? .home : .away, delta: delta)
        default:
            return .deleteMatch(id: someMatch(view))
        }
    }
}
