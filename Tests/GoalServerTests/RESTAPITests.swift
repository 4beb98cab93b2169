import Foundation
import GoalModel
import GoalServer
import GoalStore
import GoalTestSlots
import GoalTestSupport
import GoalWire
import NIOHTTP1
import Testing

/// Goalbase's API behaviours (spec/api/*_spec.rb) against a live goald over TLS, plus goald's additions: live
/// push, ETags, auth and idempotency (docs/HTTP.md).
@Suite("HTTP API: Goalbase's routes on goald", .slotted)
struct RESTAPITests {
    @Test("lists start empty; a create is 201 with the entity and an ETag")
    func emptyListsAndCreate() async throws {
        try await withTestDaemon { daemon in
            let api = RESTTestClient(connector: try daemon.connector(), token: daemon.tokens.editor)
            for path in ["players", "matches", "rankings"] {
                let list = try await api.call(.GET, path)
                #expect(list.status == 200)
                #expect(list.bodyText == "[]")
                #expect(list.header("content-type") == "application/json")
            }
            let created = try await api.call(.POST, "players", json: #"{"name":"Ada"}"#)
            #expect(created.status == 201)
            let player = try RESTTestClient.object(created)
            #expect(player["name"] as? String == "Ada")
            #expect(UUID(uuidString: player["id"] as? String ?? "") != nil)
            #expect(created.header("etag") == "\"1\"")
        }
    }

    @Test("players by name; matches newest first with players; rankings sorted by rating for every player")
    func orderings() async throws {
        try await withTestDaemon { daemon in
            let api = RESTTestClient(connector: try daemon.connector(), token: daemon.tokens.editor)
            let zoe = try await api.createPlayer("Zoe")
            let ada = try await api.createPlayer("Ada")
            let bob = try await api.createPlayer("Bob")
            let first = try await api.createMatch(home: [zoe], away: [ada], 2, 1)
            let second = try await api.createMatch(home: [ada], away: [zoe], 3, 0)

            let players = try RESTTestClient.array(try await api.call(.GET, "players"))
            #expect(players.map { $0["name"] as? String } == ["Ada", "Bob", "Zoe"])

            let matchesResponse = try await api.call(.GET, "matches")
            let matches = try RESTTestClient.array(matchesResponse)
            #expect(matches.map { $0["id"] as? String } == [second, first], "newest first")
            let newest = try #require(matches.first)
            #expect(newest["home_goals"] as? Int == 3)
            #expect(newest["away_goals"] as? Int == 0)
            let home = try #require(newest["home_players"] as? [[String: Any]])
            #expect(home.map { $0["name"] as? String } == ["Ada"])
            #expect(
                matchesResponse.bodyText.contains(#"{"id":"\#(second)","home_goals":3,"away_goals":0,"home_players":"#),
                "Goalbase's key order"
            )

            let rankings = try RESTTestClient.array(try await api.call(.GET, "rankings"))
            #expect(rankings.count == 3, "every player, Bob without a match too")
            let ratings = rankings.compactMap { $0["rating"] as? Double }
            #expect(ratings.count == 3, "rating is a JSON number")
            #expect(ratings == ratings.sorted(by: >))
            let bobRow = try #require(rankings.first { ($0["player"] as? [String: Any])?["id"] as? String == bob })
            #expect(bobRow["rating"] as? Double == 0)
        }
    }

    @Test("PUT replaces a match (200), DELETE removes it (200, the deleted record)")
    func putAndDelete() async throws {
        try await withTestDaemon { daemon in
            let api = RESTTestClient(connector: try daemon.connector(), token: daemon.tokens.editor)
            let ada = try await api.createPlayer("Ada")
            let bob = try await api.createPlayer("Bob")
            let cy = try await api.createPlayer("Cy")
            let match = try await api.createMatch(home: [ada], away: [bob], 1, 0)
            let put = try await api.call(
                .PUT,
                "matches/\(match)",
                json: RESTTestClient.matchJSON([cy], [ada, bob], 4, 5)
            )
            #expect(put.status == 200)
            let replaced = try RESTTestClient.object(put)
            #expect(replaced["home_goals"] as? Int == 4)
            #expect((replaced["away_players"] as? [[String: Any]])?.count == 2)
            let delete = try await api.call(.DELETE, "matches/\(match)")
            #expect(delete.status == 200)
            #expect(try RESTTestClient.object(delete)["id"] as? String == match)
            #expect(try await api.call(.GET, "matches").bodyText == "[]")
            #expect(try await api.call(.DELETE, "matches/\(match)").status == 404)
            let admin = RESTTestClient(connector: try daemon.connector(), token: daemon.tokens.admin)
            #expect(try await admin.call(.DELETE, "players/\(cy)").status == 200)
            #expect(try RESTTestClient.array(try await api.call(.GET, "players")).count == 2)
        }
    }

    @Test("a REST edit arrives as a changeset on a WebSocket subscriber")
    func livePush() async throws {
        try await withTestDaemon { daemon in
            let subscriber = try await TestSession.open(daemon, token: daemon.tokens.viewer)
            let api = RESTTestClient(connector: try daemon.connector(), token: daemon.tokens.editor)
            _ = try await api.createPlayer("Ada")
            let messages = try await subscriber.collect { if case .changeset = $0 { true } else { false } }
            guard case .changeset(let changeset) = messages.last else {
                Issue.record("no changeset")
                return
            }
            #expect(changeset.revision == 1)
            #expect(changeset.author == "alice", "the token's name, as for a WebSocket mutation")
            #expect(ChangesetFrame.verify(changeset, previousDigest: .genesis))
        }
    }

    @Test("If-Match with a stale ETag is 412 with the current entity; If-None-Match is 304")
    func conditionalRequests() async throws {
        try await withTestDaemon { daemon in
            let api = RESTTestClient(connector: try daemon.connector(), token: daemon.tokens.editor)
            let ada = try await api.createPlayer("Ada")
            let bob = try await api.createPlayer("Bob")
            let created = try await api.call(.POST, "matches", json: RESTTestClient.matchJSON([ada], [bob], 1, 0))
            let match = try #require(try RESTTestClient.object(created)["id"] as? String)
            let etag = try #require(created.header("etag"))
            let first = try await api.call(
                .PUT,
                "matches/\(match)",
                json: RESTTestClient.matchJSON([ada], [bob], 2, 0),
                headers: [("If-Match", etag)]
            )
            #expect(first.status == 200)
            let stale = try await api.call(
                .PUT,
                "matches/\(match)",
                json: RESTTestClient.matchJSON([ada], [bob], 9, 9),
                headers: [("If-Match", etag)]
            )
            #expect(stale.status == 412)
            #expect(try RESTTestClient.object(stale)["home_goals"] as? Int == 2, "the current entity")
            #expect(stale.header("etag") == first.header("etag"))
            #expect(try await api.call(.DELETE, "matches/\(match)", headers: [("If-Match", etag)]).status == 412)

            let list = try await api.call(.GET, "matches")
            let listTag = try #require(list.header("etag"))
            let unchanged = try await api.call(.GET, "matches", headers: [("If-None-Match", listTag)])
            #expect(unchanged.status == 304)
            #expect(unchanged.body.isEmpty)
            _ = try await api.createPlayer("Cy")
            #expect(try await api.call(.GET, "matches", headers: [("If-None-Match", listTag)]).status == 200)
        }
    }

    @Test("auth: no token 401, unknown token 401, viewer writes 403, anonymous role when configured")
    func auth() async throws {
        try await withTestDaemon { daemon in
            let connector = try daemon.connector()
            let anonymous = RESTTestClient(connector: connector, token: nil)
            let refused = try await anonymous.call(.GET, "players")
            #expect(refused.status == 401)
            #expect(try RESTTestClient.object(refused)["response_type"] as? String == "error")
            #expect(try await RESTTestClient(connector: connector, token: "nope").call(.GET, "players").status == 401)
            #expect(
                try await RESTTestClient(connector: connector, token: daemon.tokens.revoked).call(.GET, "players")
                    .status == 401
            )
            let viewer = RESTTestClient(connector: connector, token: daemon.tokens.viewer)
            #expect(try await viewer.call(.GET, "players").status == 200)
            let write = try await viewer.call(.POST, "players", json: #"{"name":"Ada"}"#)
            #expect(write.status == 403)
            #expect(try RESTTestClient.object(write)["code"] as? String == "unauthorized")
            let editor = RESTTestClient(connector: connector, token: daemon.tokens.editor)
            let ada = try await editor.createPlayer("Ada")
            #expect(try await editor.call(.DELETE, "players/\(ada)").status == 403, "deleting a player is admin-only")
        }
        let anonymousEditor: (inout ServerConfiguration) -> Void = { $0.httpAnonymousRole = .editor }
        try await withTestDaemon(configure: anonymousEditor) { daemon in
            let anonymous = RESTTestClient(connector: try daemon.connector(), token: nil)
            #expect(try await anonymous.call(.POST, "players", json: #"{"name":"Ada"}"#).status == 201)
        }
        let anonymousViewer: (inout ServerConfiguration) -> Void = { $0.httpAnonymousRole = .viewer }
        try await withTestDaemon(configure: anonymousViewer) { daemon in
            let anonymous = RESTTestClient(connector: try daemon.connector(), token: nil)
            #expect(try await anonymous.call(.GET, "players").status == 200)
            #expect(try await anonymous.call(.POST, "players", json: #"{"name":"Ada"}"#).status == 403)
        }
    }

    @Test("a retried POST with the same Idempotency-Key applies once and answers the original entity")
    func idempotencyKey() async throws {
        try await withTestDaemon { daemon in
            let api = RESTTestClient(connector: try daemon.connector(), token: daemon.tokens.editor)
            let key = [(name: "Idempotency-Key", value: "create-ada-1")]
            let first = try await api.call(.POST, "players", json: #"{"name":"Ada"}"#, headers: key)
            let retry = try await api.call(.POST, "players", json: #"{"name":"Ada"}"#, headers: key)
            #expect(first.status == 201)
            #expect(retry.status == 201)
            #expect(first.bodyText == retry.bodyText)
            #expect(try RESTTestClient.array(try await api.call(.GET, "players")).count == 1)
            let other = try await api.call(.POST, "players", json: #"{"name":"Bob"}"#, headers: key)
            #expect(other.status == 422)
            #expect(try RESTTestClient.object(other)["code"] as? String == "id_reused")
            let tooLong = [(name: "Idempotency-Key", value: String(repeating: "k", count: 201))]
            #expect(try await api.call(.POST, "players", json: #"{"name":"Cy"}"#, headers: tooLong).status == 400)
        }
    }

    @Test("an Idempotency-Key retry after a goald restart is answered from the durable table, not applied again")
    func idempotencyKeyAcrossRestart() async throws {
        let directory = try TestCertificates.makeTemporaryDirectory()
        let path = directory + "/goald.sqlite"
        let key = [(name: "Idempotency-Key", value: "match-after-restart")]
        var firstBody = ""
        var json = ""
        do {
            let daemon = try await TestDaemon.start(storage: try SQLiteLeagueStorage(path: path))
            let api = RESTTestClient(connector: try daemon.connector(), token: daemon.tokens.editor)
            let ada = try await api.createPlayer("Ada")
            let bob = try await api.createPlayer("Bob")
            json = RESTTestClient.matchJSON([ada], [bob], 1, 0)
            let first = try await api.call(.POST, "matches", json: json, headers: key)
            #expect(first.status == 201)
            firstBody = first.bodyText
            try await daemon.stop().get()
        }
        let daemon = try await TestDaemon.start(storage: try SQLiteLeagueStorage(path: path))
        let api = RESTTestClient(connector: try daemon.connector(), token: daemon.tokens.editor)
        let retry = try await api.call(.POST, "matches", json: json, headers: key)
        #expect(retry.status == 201)
        #expect(retry.bodyText == firstBody)
        #expect(try RESTTestClient.array(try await api.call(.GET, "matches")).count == 1)
        await daemon.stop()
    }

    @Test("domain rules: name taken 409, player in use 409, both sides 422, unknown player 422, unknown id 404")
    func domainErrors() async throws {
        try await withTestDaemon { daemon in
            let api = RESTTestClient(connector: try daemon.connector(), token: daemon.tokens.editor)
            let admin = RESTTestClient(connector: try daemon.connector(), token: daemon.tokens.admin)
            let ada = try await api.createPlayer("Ada")
            let bob = try await api.createPlayer("Bob")
            let taken = try await api.call(.POST, "players", json: #"{"name":"ada"}"#)
            #expect(taken.status == 409)
            #expect(try RESTTestClient.object(taken)["code"] as? String == "name_taken")
            _ = try await api.createMatch(home: [ada], away: [bob], 1, 1)
            let inUse = try await admin.call(.DELETE, "players/\(ada)")
            #expect(inUse.status == 409)
            #expect(try RESTTestClient.object(inUse)["code"] as? String == "player_in_use")
            let both = try await api.call(.POST, "matches", json: RESTTestClient.matchJSON([ada], [ada], 1, 0))
            #expect(both.status == 422)
            let unknown = UUID().uuidString
            #expect(
                try await api.call(.POST, "matches", json: RESTTestClient.matchJSON([unknown], [ada], 1, 0)).status
                    == 422
            )
            #expect(
                try await api.call(.POST, "matches", json: RESTTestClient.matchJSON(["x"], [ada], 1, 0)).status == 422
            )
            #expect(
                try await api.call(.PUT, "matches/\(unknown)", json: RESTTestClient.matchJSON([ada], [bob], 1, 0))
                    .status == 404
            )
            #expect(
                try await api.call(.PUT, "matches/not-a-uuid", json: RESTTestClient.matchJSON([ada], [bob], 1, 0))
                    .status == 404
            )
            #expect(try await admin.call(.DELETE, "players/\(unknown)").status == 404)
            #expect(try await api.call(.GET, "nothing").status == 404)
            let wrongMethod = try await api.call(.PATCH, "players")
            #expect(wrongMethod.status == 405)
            #expect(wrongMethod.header("allow") == "GET, HEAD, POST")
        }
    }
}
