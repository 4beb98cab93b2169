import GoalModel
import GoalTestSlots
import Testing

@Suite("League state", .slotted)
struct LeagueStateTests {
    /// The standard fixture plus renames, deletes, roster changes and rejections.
    private func busyLeague() -> League {
        var league = League.standard()
        league.run(rename(1, "alice"), by: clientA)
        league.run(update(1, home: [1, 6], homeGoals: 3), by: clientB)
        league.run(createPlayer(7, "Gina"), by: clientA)
        league.run(createMatch(3, [7], [2], 1, 1), by: clientA)
        league.run(deleteMatch(2), by: clientB)
        league.run(deletePlayer(3), by: clientC)
        league.run(deletePlayer(1), by: clientC)
        league.run(update(1, homeGoals: 5), by: clientA, base: 8)
        return league
    }

    @Test("Rebuilding from players, matches, client records and revision gives the same state")
    func rebuild() throws {
        let state = busyLeague().state
        let rebuilt = try LeagueState(
            revision: state.revision,
            players: Array(state.allPlayers).reversed(),
            matches: Array(state.allMatches),
            clientRecords: Array(state.allClientRecords)
        )
        #expect(rebuilt == state)
        #expect(rebuilt.rankings() == state.rankings())
        #expect(rebuilt.matchCount(referencing: pid(6)) == 1)
        #expect(rebuilt.player(withNameKey: "alice")?.id == pid(1))
    }

    @Test("Rebuilding refuses parts that break an invariant")
    func rebuildErrors() throws {
        let state = League.standard().state
        let players = Array(state.allPlayers)
        let matches = Array(state.allMatches)
        let alice = state.player(pid(1))!
        let twin = Player(
            id: pid(9),
            name: "ALICE",
            nameKey: "alice",
            created: alice.created,
            nameStamp: alice.nameStamp
        )
        #expect(throws: LeagueStateError.duplicateNameKey("alice")) {
            try LeagueState(revision: 8, players: players + [twin], matches: matches, clientRecords: [])
        }
        #expect(throws: LeagueStateError.duplicatePlayer(pid(1))) {
            try LeagueState(revision: 8, players: players + [alice], matches: matches, clientRecords: [])
        }
        #expect(throws: LeagueStateError.unknownPlayer(match: mid(1), player: pid(1))) {
            try LeagueState(
                revision: 8,
                players: players.filter { $0.id != pid(1) },
                matches: matches,
                clientRecords: []
            )
        }
        #expect(throws: LeagueStateError.revisionBehind(7, stamp: 8)) {
            try LeagueState(revision: 7, players: players, matches: matches, clientRecords: [])
        }
    }

    @Test("A copy is a snapshot: later changes do not reach it")
    func snapshot() {
        var league = League.standard()
        let snapshot = league.state
        league.run(update(1, homeGoals: 4), by: clientA)
        league.run(deletePlayer(6), by: clientA)
        #expect(snapshot.revision == 8)
        #expect(snapshot.match(mid(1))?.homeGoals == 0)
        #expect(snapshot.player(pid(6)) != nil)
        #expect(snapshot.clientRecord(for: clientA) == nil)
        #expect(snapshot == League.standard().state)
    }

    @Test("Lists: rankings by rating, then name key, then id; matches newest first; players by name")
    func lists() {
        var league = League()
        for (n, name) in [(1, "bob"), (2, "Alice"), (3, "carl"), (4, "Dora")].enumerated().map({
            ($0.element.0, $0.element.1)
        }) {
            league.run(createPlayer(n, name), by: clientA)
        }
        league.run(createMatch(1, [1], [3], 1, 1), by: clientA)
        league.run(createMatch(2, [2], [4], 0, 0), by: clientA)
        league.run(createMatch(3, [3], [4], 2, 0), by: clientA)
        // carl 1 win 1 draw = 6.67; Alice, bob 1 draw = 3.33; Dora 1 draw 1 loss = 1.67.
        #expect(league.state.rankings().map(\.playerID) == [pid(3), pid(2), pid(1), pid(4)])
        #expect(league.state.matchesNewestFirst().map(\.id) == [mid(3), mid(2), mid(1)])
        #expect(league.state.playersByName().map(\.name) == ["Alice", "bob", "carl", "Dora"])
        league.run(createPlayer(5, "Aaron"), by: clientA)
        #expect(league.state.rankings().last?.playerID == pid(5), "unplayed ranks last, as 0")
    }

    @Test("Ids order like their canonical text")
    func idOrder() {
        let players = (0..<300).map { _ in PlayerID() }
        #expect(players.sorted() == players.sorted { $0.description < $1.description })
        let matches = (0..<300).map { _ in MatchID() }
        #expect(matches.sorted() == matches.sorted { $0.description < $1.description })
    }
}
