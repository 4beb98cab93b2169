import Foundation
import GoalModel
import GoalServer
import GoalTestSlots
import GoalTestSupport
import NIOHTTP1
import Testing

/// One league's routes over the HTTP API (`/api/v1/leagues/{league}/…`) against a live goald over TLS: each
/// league's data is its own, Goalbase's paths stay the default league's, and a token's role is its role in the
/// league the path names (docs/HTTP.md "Leagues").
@Suite("HTTP API: one league's routes", .slotted)
struct RESTLeagueTests {
    typealias Support = RESTLeagueSupport

    @Test("a write in league A is visible under A only: not under B, nor the default league's paths")
    func writesStayInTheirLeague() async throws {
        try await withTestDaemon { daemon in
            try await Support.createLeagues(daemon, [Support.alpha, Support.beta])
            let api = RESTTestClient(connector: try daemon.connector(), token: daemon.tokens.editor)
            let created = try await api.call(.POST, "leagues/alpha/players", json: #"{"name":"Ada"}"#)
            #expect(created.status == 201)
            #expect(created.header("etag") == "\"1\"", "alpha's own revisions start at 1")
            let ada = try #require(try RESTTestClient.object(created)["id"] as? String)
            let bob =
                try RESTTestClient.object(
                    try await api.call(.POST, "leagues/alpha/players", json: #"{"name":"Bob"}"#)
                )["id"] as? String
            let match = try await api.call(
                .POST,
                "leagues/alpha/matches",
                json: RESTTestClient.matchJSON([ada], [try #require(bob)], 2, 1)
            )
            #expect(match.status == 201)

            let alphaPlayers = try RESTTestClient.array(try await api.call(.GET, "leagues/alpha/players"))
            #expect(alphaPlayers.map { $0["name"] as? String } == ["Ada", "Bob"])
            #expect(try RESTTestClient.array(try await api.call(.GET, "leagues/alpha/matches")).count == 1)
            #expect(try RESTTestClient.array(try await api.call(.GET, "leagues/alpha/rankings")).count == 2)
            for path in [
                "leagues/beta/players", "leagues/beta/matches", "leagues/beta/rankings", "players", "matches",
                "rankings", "leagues/default/players",
            ] {
                let list = try await api.call(.GET, path)
                #expect(list.status == 200, "\(path)")
                #expect(list.bodyText == "[]", "\(path) sees nothing of alpha")
            }
            // A write on Goalbase's path lands in the default league, which /api/v1/leagues/default/ also serves.
            let home = try await api.call(.POST, "players", json: #"{"name":"Cy"}"#)
            #expect(home.status == 201)
            let viaDefault = try RESTTestClient.array(try await api.call(.GET, "leagues/default/players"))
            #expect(viaDefault.map { $0["name"] as? String } == ["Cy"])
            #expect(try await api.call(.GET, "leagues/beta/players").bodyText == "[]")
            // The entity routes look in the league the path names only.
            #expect(try await api.call(.DELETE, "leagues/beta/players/\(ada)").status == 404)
            #expect(try await api.call(.DELETE, "players/\(ada)").status == 404)
        }
    }

    @Test("a league that does not exist, or cannot, is 404 unknown_league for a token of every league")
    func unknownLeague() async throws {
        try await withTestDaemon { daemon in
            let api = RESTTestClient(connector: try daemon.connector(), token: daemon.tokens.editor)
            for path in ["leagues/ghost/players", "leagues/ghost/rankings", "leagues/Not_A_League/matches"] {
                let response = try await api.call(.GET, path)
                #expect(response.status == 404, "\(path)")
                #expect(try Support.code(response) == "unknown_league", "\(path)")
            }
            let write = try await api.call(.POST, "leagues/ghost/players", json: #"{"name":"Ada"}"#)
            #expect(write.status == 404)
            #expect(try RESTTestClient.object(write)["response"] as? String == "there is no league ghost")
        }
    }

    @Test("a token confined to A: 403 on B's reads and writes, and on a league that does not exist; its role is A's")
    func confinedToken() async throws {
        try await withTestDaemon { daemon in
            try await Support.createLeagues(daemon, [Support.alpha, Support.beta])
            let connector = try daemon.connector()
            let carol = RESTTestClient(
                connector: connector,
                token: try Support.confinedToken(daemon, "carol", [Support.alpha: .editor])
            )
            #expect(try await carol.call(.POST, "leagues/alpha/players", json: #"{"name":"Ada"}"#).status == 201)
            #expect(try await carol.call(.GET, "leagues/alpha/players").status == 200)
            let refusals: [(HTTPMethod, String, String?)] = [
                (.GET, "leagues/beta/players", nil),
                (.GET, "leagues/beta/matches", nil),
                (.GET, "leagues/beta/rankings", nil),
                (.POST, "leagues/beta/players", #"{"name":"Eve"}"#),
                (.POST, "leagues/beta/matches", RESTTestClient.matchJSON([], [], 0, 0)),
                (.GET, "leagues/ghost/players", nil),  // no existence leak: the same 403 as beta's
                (.GET, "players", nil),  // the default league: no grant there either
                (.POST, "players", #"{"name":"Eve"}"#),
            ]
            for (method, path, body) in refusals {
                let response = try await carol.call(method, path, json: body)
                #expect(response.status == 403, "\(method) \(path)")
                #expect(try Support.code(response) == "league_forbidden", "\(method) \(path)")
            }
            #expect(try await Support.listed(carol).map(\.id) == [Support.alpha], "beta and default are not listed")
            #expect(try await Support.listed(carol).map(\.role) == ["editor"])

            // A viewer grant: reads, no writes (the engine's rule, with the league's role).
            let vic = RESTTestClient(
                connector: connector,
                token: try Support.confinedToken(daemon, "vic", [Support.alpha: .viewer, Support.beta: .editor])
            )
            #expect(try await vic.call(.GET, "leagues/alpha/players").status == 200)
            let refused = try await vic.call(.POST, "leagues/alpha/players", json: #"{"name":"Vi"}"#)
            #expect(refused.status == 403)
            #expect(try Support.code(refused) == "unauthorized")
            #expect(try await vic.call(.POST, "leagues/beta/players", json: #"{"name":"Vi"}"#).status == 201)
            #expect(try await Support.listed(vic).map { "\($0.id):\($0.role)" } == ["alpha:viewer", "beta:editor"])
        }
    }

    @Test("the anonymous role is the default league's only: 401 under any other league")
    func anonymousRoleIsTheDefaultLeagues() async throws {
        let anonymousViewer: (inout ServerConfiguration) -> Void = { $0.httpAnonymousRole = .viewer }
        try await withTestDaemon(configure: anonymousViewer) { daemon in
            try await Support.createLeagues(daemon, [Support.alpha])
            let anonymous = RESTTestClient(connector: try daemon.connector(), token: nil)
            #expect(try await anonymous.call(.GET, "players").status == 200)
            #expect(try await anonymous.call(.GET, "leagues/default/players").status == 200)
            let refused = try await anonymous.call(.GET, "leagues/alpha/players")
            #expect(refused.status == 401)
            #expect(refused.header("www-authenticate") == "Bearer")
            #expect(try await Support.listed(anonymous).map { "\($0.id):\($0.role)" } == ["default:viewer"])
        }
    }
}
