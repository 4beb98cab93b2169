import Foundation
import GoalModel
import GoalTestSlots
import GoalWire
import Testing

@Suite("REST: the HTTP API's JSON shapes (docs/HTTP.md)", .slotted)
struct RESTCodingTests {
    private func league() -> (LeagueState, PlayerID, PlayerID) {
        var state = LeagueState()
        let ada = PlayerID()
        let bob = PlayerID()
        let instance = ClientInstanceID.random()
        let actions: [MutationAction] = [
            .createPlayer(id: ada, name: "Ada \"A\""),
            .createPlayer(id: bob, name: "Bob"),
            .createMatch(id: MatchID(), homePlayers: [ada], awayPlayers: [bob], homeGoals: 2, awayGoals: 1),
        ]
        for (index, action) in actions.enumerated() {
            let mutation = Mutation(
                id: MutationID(instance: instance, seq: UInt64(index + 1)),
                base: state.revision,
                action: action
            )
            _ = ConflictEngine.apply(mutation, author: "test", to: &state)
        }
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
        let error = String(decoding: RESTEncoding.error(code: "invalid", message: "bad \"x\""), as: UTF8.self)
        #expect(error == #"{"response_type":"error","response":"bad \"x\"","code":"invalid"}"#)
    }

    @Test("bodies: every field required and typed; other keys ignored")
    func bodies() throws {
        let match = try RESTMatchBody(
            json: Array(#"{"home_goals":1,"away_goals":0,"home_player_ids":["a"],"away_player_ids":["b"],"x":1}"#.utf8)
        )
        #expect(match.homeGoals == 1)
        #expect(match.homePlayerIDs == ["a"])
        #expect(try RESTPlayerBody(json: Array(#"{"name":"Ada"}"#.utf8)).name == "Ada")
        let bad = [#"{"name":1}"#, "{", "[]", "{}", #"{"name":null}"#]
        for text in bad {
            #expect(throws: RESTBodyError.self, "\(text)") { try RESTPlayerBody(json: Array(text.utf8)) }
        }
        let badMatches = [
            #"{"home_goals":1e0,"away_goals":0,"home_player_ids":[],"away_player_ids":[]}"#,
            #"{"home_goals":1,"away_goals":99999999999999999999,"home_player_ids":[],"away_player_ids":[]}"#,
            #"{"home_goals":1,"away_goals":0,"home_player_ids":"a","away_player_ids":[]}"#,
        ]
        for text in badMatches {
            #expect(throws: RESTBodyError.self, "\(text)") { try RESTMatchBody(json: Array(text.utf8)) }
        }
    }
}
