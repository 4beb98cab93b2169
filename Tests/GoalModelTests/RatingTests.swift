import GoalModel
import GoalTestSlots
import Testing

/// The original app's rating (swiftgoal-domain.md §3): win 3, draw 1, loss 0; 10 × points / (3 × played).
@Suite("Rating", .slotted)
struct RatingTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let outcomes: [MatchOutcome]
        let value: Double
        let formatted: String
        var testDescription: String { name }
    }

    @Test(
        "Records give the server spec's figures",
        arguments: [
            Row(name: "two wins", outcomes: [.win, .win], value: 10, formatted: "10.00"),
            Row(name: "two draws", outcomes: [.draw, .draw], value: 10.0 / 3.0, formatted: "3.33"),
            Row(name: "two losses", outcomes: [.loss, .loss], value: 0, formatted: "0.00"),
            Row(
                name: "win, two draws, loss",
                outcomes: [.win, .draw, .draw, .loss],
                value: 50.0 / 12.0,
                formatted: "4.17"
            ),
            Row(name: "win and draw", outcomes: [.win, .draw], value: 20.0 / 3.0, formatted: "6.67"),
            Row(name: "unplayed", outcomes: [], value: 0, formatted: "0.00"),
            Row(
                name: "SwiftGoal mixed: 2 wins, 1 draw, 2 losses",
                outcomes: [.win, .loss, .draw, .win, .loss],
                value: 70.0 / 15.0,
                formatted: "4.67"
            ),
        ]
    )
    func figures(_ row: Row) {
        var rating = Rating(playerID: pid(1))
        for outcome in row.outcomes { rating.record(outcome) }
        #expect(abs(rating.value - row.value) < 1e-12)
        #expect(!rating.value.isNaN)
        #expect(rating.formatted == row.formatted)
        #expect(rating.played == row.outcomes.count)
        #expect(rating.won + rating.drawn + rating.lost == rating.played)
    }

    @Test("Removing an outcome undoes recording it")
    func removal() {
        var rating = Rating(playerID: pid(1))
        rating.record(.win)
        rating.record(.draw)
        rating.record(.win, sign: -1)
        #expect(rating == Rating(playerID: pid(1), points: 1, played: 1, won: 0, drawn: 1, lost: 0))
    }

    /// Plays matches through the engine; returns the league.
    private func league(players: Int, matches: [([Int], [Int], Int, Int)]) -> League {
        var league = League()
        for n in 1...players { league.run(createPlayer(n, "P\(n)"), by: clientA) }
        for (index, (home, away, homeGoals, awayGoals)) in matches.enumerated() {
            league.run(createMatch(index + 1, home, away, homeGoals, awayGoals), by: clientA)
        }
        return league
    }

    @Test("Rankings: p2 beats p1 1:0 and draws p3 0:0 → p2 6.667, p3 3.333, p1 0")
    func rankingsSpec() {
        let state = league(players: 3, matches: [([2], [1], 1, 0), ([2], [3], 0, 0)]).state
        let ranked = state.rankings()
        #expect(ranked.map(\.playerID) == [pid(2), pid(3), pid(1)])
        #expect(ranked.map(\.formatted) == ["6.67", "3.33", "0.00"])
        #expect(abs(ranked[0].value - 20.0 / 3.0) < 1e-12)
        #expect(abs(ranked[1].value - 10.0 / 3.0) < 1e-12)
        #expect(ranked[2].value == 0)
    }

    @Test("SwiftGoal's mixed spec: both players 2 wins, 1 draw, 2 losses → 10·7/15")
    func mixedSpec() {
        let state = league(
            players: 2,
            matches: [([1], [2], 1, 0), ([2], [1], 2, 1), ([1], [2], 3, 3), ([2], [1], 0, 1), ([1], [2], 0, 4)]
        ).state
        for n in 1...2 {
            let rating = state.rating(of: pid(n))!
            #expect(rating == Rating(playerID: pid(n), points: 7, played: 5, won: 2, drawn: 1, lost: 2))
            #expect(abs(rating.value - 70.0 / 15.0) < 1e-12)
        }
    }

    @Test("Three players each 1-1 → 5 each; ties ranked by name")
    func threeWay() {
        let state = league(players: 3, matches: [([1], [2], 1, 0), ([2], [3], 1, 0), ([3], [1], 1, 0)]).state
        #expect(state.rankings().map(\.formatted) == ["5.00", "5.00", "5.00"])
        #expect(state.rankings().map(\.playerID) == [pid(1), pid(2), pid(3)])
    }

    @Test("Team matches: every player of a side gets that side's points; unplayed players rate 0")
    func teams() {
        let state = league(players: 5, matches: [([1, 2], [3], 2, 1)]).state
        #expect(state.rating(of: pid(1))?.points == 3)
        #expect(state.rating(of: pid(2))?.points == 3)
        #expect(state.rating(of: pid(3))?.points == 0)
        #expect(state.rating(of: pid(3))?.played == 1)
        #expect(state.rating(of: pid(5)) == Rating(playerID: pid(5)))
        #expect(state.rating(of: pid(5))?.value == 0)
        #expect(state.rating(of: pid(5))?.formatted == "0.00")
    }
}
