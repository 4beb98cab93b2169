import Foundation
import GoalModel
import GoalTestSlots
import GoalWire
import Testing

@Suite("REST: the HTTP API's JSON shapes (docs/HTTP.md)", .slotted)
struct RESTCodingTests {
    /// The league `actions` make, applied in order through the real conflict engine.
    private func applying(_ actions: [MutationAction]) -> LeagueState {
        var state = LeagueState()
        let instance = ClientInstanceID.random()
        for (index, action) in actions.enumerated() {
            let mutation = Mutation(
                id: MutationID(instance: instance, seq: UInt64(index + 1)),
                base: state.revision,
                action: action
            )
            _ = ConflictEngine.apply(mutation, author: "test", to: &state)
        }
        return state
    }

    private func league() -> (LeagueState, PlayerID, PlayerID) {
        let ada = PlayerID()
        let bob = PlayerID()
        let state = applying([
            .createPlayer(id: ada, name: "Ada \"A\""),
            .createPlayer(id: bob, name: "Bob"),
            .createMatch(id: MatchID(), homePlayers: [ada], awayPlayers: [bob], homeGoals: 2, awayGoals: 1),
        ])
        return (state, ada, bob)
    }

    @Test("matches in Goalbase's key order with their players; rankings with a numeric rating for every player")
    func encodings() throws {
        let (state, ada, bob) = league()
        let matches = String(decoding: RESTEncoding.matches(state.matchesNewestFirst(), in: state), as: UTF8.self)
        let match = try #require(state.matchesNewestFirst().first)
        #expect(
            matches
                == #"[{"id":"\#(match.id.uuid.uuidString.lowercased())","home_goals":2,"away_goals":1,"#
                + #""home_players":[{"id":"\#(ada.uuid.uuidString.lowercased())","name":"Ada \"A\""}],"#
                + #""away_players":[{"id":"\#(bob.uuid.uuidString.lowercased())","name":"Bob"}]}]"#
        )
        let rankings = try #require(
            try JSONSerialization.jsonObject(with: Data(RESTEncoding.rankings(state))) as? [[String: Any]]
        )
        #expect(rankings.count == 2)
        #expect(rankings.first?["rating"] as? Double == 10)
        #expect(rankings.last?["rating"] as? Double == 0)
        let error = String(decoding: RESTEncoding.error(code: .invalid, message: "bad \"x\""), as: UTF8.self)
        #expect(error == #"{"response_type":"error","response":"bad \"x\"","code":"invalid"}"#)
    }

    @Test("bodies: every field required and typed; other keys ignored")
    func bodies() throws {
        let match = try RESTMatchBody(
            Array(#"{"home_goals":1,"away_goals":0,"home_player_ids":["a"],"away_player_ids":["b"],"x":1}"#.utf8),
            format: .json
        )
        #expect(match.homeGoals == 1)
        #expect(match.homePlayerIDs == ["a"])
        #expect(try RESTPlayerBody(Array(#"{"name":"Ada"}"#.utf8), format: .json).name == "Ada")
        let bad = [#"{"name":1}"#, "{", "[]", "{}", #"{"name":null}"#]
        for text in bad {
            #expect(throws: RESTBodyError.self, "\(text)") { try RESTPlayerBody(Array(text.utf8), format: .json) }
        }
        let badMatches = [
            #"{"home_goals":1e0,"away_goals":0,"home_player_ids":[],"away_player_ids":[]}"#,
            #"{"home_goals":1,"away_goals":99999999999999999999,"home_player_ids":[],"away_player_ids":[]}"#,
            #"{"home_goals":1,"away_goals":0,"home_player_ids":"a","away_player_ids":[]}"#,
        ]
        for text in badMatches {
            #expect(throws: RESTBodyError.self, "\(text)") { try RESTMatchBody(Array(text.utf8), format: .json) }
        }
    }

    /// Ratings of the players of a league built from `(home, away, homeGoals, awayGoals)` results, as GET
    /// /api/v1/rankings writes them.
    private func ratings(players: Int, _ results: [(Int, Int, Int, Int)]) -> [String] {
        let ids = (0..<players).map { _ in PlayerID() }
        var actions = ids.enumerated().map { MutationAction.createPlayer(id: $1, name: "p\($0)") }
        for (home, away, homeGoals, awayGoals) in results {
            actions.append(
                .createMatch(
                    id: MatchID(),
                    homePlayers: [ids[home]],
                    awayPlayers: [ids[away]],
                    homeGoals: homeGoals,
                    awayGoals: awayGoals
                )
            )
        }
        let text = String(decoding: RESTEncoding.rankings(applying(actions)), as: UTF8.self)
        return text.split(separator: #""rating":"#).dropFirst().map { String($0.prefix { $0 != "}" }) }
    }

    @Test("ratings are Goalbase's Float#round(3), written as Ruby writes them: 6.667, 3.333, 4.167, 0.0, 10.0")
    func ratingsRoundedAsGoalbase() {
        // rating_engine_spec.rb: a win and a draw; two draws; two losses.
        #expect(ratings(players: 3, [(0, 1, 1, 0), (0, 2, 0, 0), (1, 2, 0, 0)]) == ["6.667", "3.333", "1.667"])
        // One win, two draws and a loss is 4.167 (p0); 70/9 and 10/6 round up, 30/9 down.
        let mixed = ratings(
            players: 4,
            [(0, 1, 1, 0), (0, 2, 0, 0), (0, 3, 0, 0), (1, 0, 1, 0), (2, 1, 1, 0), (2, 3, 1, 0)]
        )
        #expect(mixed == ["7.778", "4.167", "3.333", "1.667"])
        #expect(ratings(players: 2, [(0, 1, 1, 0), (0, 1, 2, 0)]) == ["10.0", "0.0"])
        // One win in 32 matches is 3/32 × 10/3 = 0.3125 and 31 wins 9.6875: half away from zero, as Ruby rounds.
        let halves = [(0, 1, 1, 0)] + Array(repeating: (0, 1, 0, 1), count: 31)
        #expect(ratings(players: 2, halves) == ["9.688", "0.313"])
    }

    @Test("form bodies: + and %-escapes decoded, lists as key[] or key, last scalar wins; bad escapes refused")
    func formBodies() throws {
        let player = try RESTPlayerBody(Array("x=1&name=A+B%2B&name=Ada+L".utf8), format: .form)
        #expect(player.name == "Ada L")
        let match = try RESTMatchBody(
            Array(
                "home_goals=-1&away_goals=007&home_player_ids[]=a&home_player_ids[]=b&away_player_ids=c&away_player_ids[]="
                    .utf8
            ),
            format: .form
        )
        #expect(match.homeGoals == -1)
        #expect(match.awayGoals == 7)
        #expect(match.homePlayerIDs == ["a", "b"])
        #expect(match.awayPlayerIDs == ["c"])
        for bad in ["name=%", "name=%G0", "name=%C3", "%FF=x&name=a", ""] {
            #expect(throws: RESTBodyError.self, "\(bad)") { try RESTPlayerBody(Array(bad.utf8), format: .form) }
        }
        #expect(throws: RESTBodyError.self) { try RESTPlayerBody([0x7B, 0xC3, 0x28, 0x7D], format: .json) }
        // JSON sent as a form (curl -d '{…}') is named as such.
        #expect(throws: RESTBodyError.self) { try RESTPlayerBody(Array(#" {"name":"Ada"}"#.utf8), format: .form) }
        do {
            _ = try RESTPlayerBody(Array(#"{"name":"Ada"}"#.utf8), format: .form)
        } catch {
            #expect(error.message.hasPrefix("the body looks like JSON but its Content-Type says"))
        }
    }

    @Test("Content-Type: JSON or a form in UTF-8, parameters and case ignored; anything else names no format")
    func contentTypes() {
        #expect(RESTBodyFormat(contentType: "application/json") == .json)
        #expect(RESTBodyFormat(contentType: " Application/JSON ; charset=\"UTF-8\"") == .json)
        #expect(RESTBodyFormat(contentType: "application/x-www-form-urlencoded; charset=utf-8") == .form)
        for other in ["text/plain", "multipart/form-data; boundary=x", "application/json; charset=latin1", "", nil] {
            #expect(RESTBodyFormat(contentType: other) == nil, "\(other ?? "nil")")
        }
    }
}
