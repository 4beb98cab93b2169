import GoalModel
import GoalTestSlots
import Testing

/// A match change recomputes the ratings of old ∪ new players of that match, in the same commit.
@Suite("Ratings follow match changes", .slotted)
struct RatingRecomputeTests {
    /// A row: steps on the standard fixture, then the ratings the LAST commit must carry, in order.
    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let steps: [MutationAction]
        /// (player, points, played, won, drawn, lost), in the commit's order.
        let ratings: [(Int, Int, Int, Int, Int, Int)]
        var testDescription: String { name }
    }

    @Test(
        "The commit carries the exact ratings of old ∪ new players",
        arguments: [
            // m1 = [p1] 0:0 [p2]; m2 = [p3, p4] 1:0 [p5].
            Row(
                name: "roster change on a draw: p1 out, p6 in",
                steps: [update(1, home: [6])],
                ratings: [(1, 0, 0, 0, 0, 0), (2, 1, 1, 0, 1, 0), (6, 1, 1, 0, 1, 0)]
            ),
            Row(
                name: "goal turns a draw into a win",
                steps: [adjust(1, .home, 1)],
                ratings: [(1, 3, 1, 1, 0, 0), (2, 0, 1, 0, 0, 1)]
            ),
            Row(
                name: "roster and result at once: p5 out, p6 and p2 in, away wins",
                steps: [update(2, away: [6, 2], awayGoals: 2)],
                ratings: [
                    (3, 0, 1, 0, 0, 1), (4, 0, 1, 0, 0, 1), (5, 0, 0, 0, 0, 0), (6, 3, 1, 1, 0, 0), (2, 4, 2, 1, 1, 0),
                ]
            ),
            Row(
                name: "sides swapped",
                steps: [update(2, home: [5], away: [3, 4])],
                ratings: [(3, 0, 1, 0, 0, 1), (4, 0, 1, 0, 0, 1), (5, 3, 1, 1, 0, 0)]
            ),
            Row(
                name: "a delete removes the match from its players",
                steps: [deleteMatch(2)],
                ratings: [(3, 0, 0, 0, 0, 0), (4, 0, 0, 0, 0, 0), (5, 0, 0, 0, 0, 0)]
            ),
            Row(
                name: "a create adds to its players' records",
                steps: [createMatch(3, [6], [1], 2, 1)],
                ratings: [(6, 3, 1, 1, 0, 0), (1, 1, 2, 0, 1, 1)]
            ),
            Row(
                name: "an update after other changes",
                steps: [createMatch(3, [1], [3], 0, 5), update(3, home: [1, 2], homeGoals: 5)],
                ratings: [(1, 2, 2, 0, 2, 0), (3, 4, 2, 1, 1, 0), (2, 2, 2, 0, 2, 0)]
            ),
        ]
    )
    func recompute(_ row: Row) throws {
        var league = League.standard()
        var last: Commit?
        for action in row.steps {
            last = league.run(action, by: clientA).commit
            try #require(last != nil, "step did not commit: \(action)")
        }
        let expected = row.ratings.map { p, points, played, won, drawn, lost in
            Rating(playerID: pid(p), points: points, played: played, won: won, drawn: drawn, lost: lost)
        }
        let commit = try #require(last)
        let carried: [Rating] = commit.changes.compactMap {
            if case .ratingUpdated(let rating) = $0 { return rating }
            return nil
        }
        #expect(carried == expected)
        for rating in expected { #expect(league.state.rating(of: rating.playerID) == rating) }
        #expect(commit.changes.count == expected.count + 1)
    }
}
