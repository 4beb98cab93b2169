import Foundation
import GoalModel
import GoalTestSlots
import GoalTestSupport
import GoalWire
import NIOHTTP1
import Testing

/// The league directory over the HTTP API (`/api/v1/leagues`) against a live goald over TLS: operators create,
/// rename and delete leagues, everyone lists the leagues they may use, and a deletion closes the league's sessions
/// (docs/HTTP.md "Leagues").
@Suite("HTTP API: the league directory", .slotted)
struct RESTLeagueDirectoryTests {
    typealias Support = RESTLeagueSupport

    @Test("POST creates (201, the league with the caller's role, RFC 3339 created); 409 when it exists; 400 says why")
    func create() async throws {
        try await withTestDaemon { daemon in
            let admin = RESTTestClient(connector: try daemon.connector(), token: daemon.tokens.admin)
            let created = try await admin.call(.POST, "leagues", json: #"{"id":"office-berlin","name":" Berlin "}"#)
            #expect(created.status == 201)
            #expect(created.header("location") == "/api/v1/leagues/office-berlin")
            let league = try RESTTestClient.object(created)
            #expect(league["id"] as? String == "office-berlin")
            #expect(league["name"] as? String == "Berlin", "a league's name is trimmed like a player's")
            #expect(league["role"] as? String == "admin")
            let createdText = try #require(league["created"] as? String)
            #expect(try Date(createdText, strategy: .iso8601).timeIntervalSinceNow.magnitude < 3_600)

            let again = try await admin.call(.POST, "leagues", json: #"{"id":"office-berlin","name":"Other"}"#)
            #expect(again.status == 409)
            #expect(try Support.code(again) == "league_exists")
            #expect(try await admin.call(.POST, "leagues", json: #"{"id":"default","name":"D"}"#).status == 409)

            let refusals: [(String, String)] = [
                (#"{"id":"Office","name":"X"}"#, #"id: "Office" is not a league id"#),
                (#"{"id":"-x","name":"X"}"#, #"id: "-x" is not a league id"#),
                (#"{"name":"X"}"#, "id is missing"),
                (#"{"id":"x","name":"  "}"#, "name: a league name cannot be empty"),
                (#"{"id":"x","name":7}"#, "name must be a string"),
                ("[]", "the body must be a JSON object"),
            ]
            for (body, reason) in refusals {
                let response = try await admin.call(.POST, "leagues", json: body)
                #expect(response.status == 400, "\(body)")
                #expect(try Support.code(response) == "invalid", "\(body)")
                let message = try RESTTestClient.object(response)["response"] as? String ?? ""
                #expect(message.hasPrefix(reason), "\(body): \(message)")
            }
            let listed = try await Support.listed(admin)
            #expect(listed.map(\.id) == ["default", "office-berlin"], "the refused ones were not created")
            #expect(listed.map(\.role) == ["admin", "admin"])
        }
    }

    @Test("only operators create, rename and delete: 403 operator_only for every other token")
    func nonOperatorsAreRefused() async throws {
        try await withTestDaemon { daemon in
            try await Support.createLeagues(daemon, [Support.alpha])
            let connector = try daemon.connector()
            let confinedAdmin = try Support.confinedToken(daemon, "ann", [Support.alpha: .admin])
            for token in [daemon.tokens.editor, daemon.tokens.viewer, confinedAdmin] {
                let api = RESTTestClient(connector: connector, token: token)
                let attempts: [(HTTPMethod, String, String?)] = [
                    (.POST, "leagues", #"{"id":"gamma","name":"Gamma"}"#),
                    (.PATCH, "leagues/alpha", #"{"name":"Renamed"}"#),
                    (.DELETE, "leagues/alpha", nil),
                ]
                for (method, path, body) in attempts {
                    let response = try await api.call(method, path, json: body)
                    #expect(response.status == 403, "\(method) \(path)")
                    #expect(try Support.code(response) == "operator_only", "\(method) \(path)")
                }
            }
            let admin = RESTTestClient(connector: connector, token: daemon.tokens.admin)
            let leagues =
                try RESTTestClient.object(try await admin.call(.GET, "leagues"))["leagues"] as? [[String: Any]]
            #expect(leagues?.map { $0["id"] as? String } == ["default", "alpha"])
            #expect(leagues?.last?["name"] as? String == "League alpha", "not renamed")
            // Every league's admin token lists them all with its role.
            #expect(
                try await Support.listed(RESTTestClient(connector: connector, token: daemon.tokens.viewer)).map(\.role)
                    == ["viewer", "viewer"]
            )
        }
    }

    @Test("PATCH renames (200); unknown league 404; the default league can be renamed")
    func rename() async throws {
        try await withTestDaemon { daemon in
            try await Support.createLeagues(daemon, [Support.alpha])
            let admin = RESTTestClient(connector: try daemon.connector(), token: daemon.tokens.admin)
            let renamed = try await admin.call(.PATCH, "leagues/alpha", json: #"{"name":"Alpha Office"}"#)
            #expect(renamed.status == 200)
            #expect(try RESTTestClient.object(renamed)["name"] as? String == "Alpha Office")
            #expect(try RESTTestClient.object(renamed)["id"] as? String == "alpha")
            let listed = try RESTTestClient.object(try await admin.call(.GET, "leagues"))["leagues"] as? [[String: Any]]
            #expect(listed?.last?["name"] as? String == "Alpha Office")
            let unknown = try await admin.call(.PATCH, "leagues/ghost", json: #"{"name":"X"}"#)
            #expect(unknown.status == 404)
            #expect(try Support.code(unknown) == "unknown_league")
            #expect(try await admin.call(.PATCH, "leagues/alpha", json: #"{"id":"x"}"#).status == 400)
            #expect(try await admin.call(.PATCH, "leagues/default", json: #"{"name":"Home"}"#).status == 200)
        }
    }

    @Test("DELETE (204) closes the league's sessions with 4404, not the default league's; the default league is 409")
    func deleteClosesSessions() async throws {
        try await withTestDaemon { daemon in
            try await Support.createLeagues(daemon, [Support.alpha])
            let alpha = try LeagueSlug(validating: Support.alpha)
            let admin = RESTTestClient(connector: try daemon.connector(), token: daemon.tokens.admin)
            #expect(try await admin.call(.POST, "leagues/alpha/players", json: #"{"name":"Ada"}"#).status == 201)
            let inAlpha = try await TestSession.open(daemon, token: daemon.tokens.viewer, league: alpha)
            let inDefault = try await TestSession.open(daemon, token: daemon.tokens.viewer)

            let refused = try await admin.call(.DELETE, "leagues/default")
            #expect(refused.status == 409)
            #expect(try Support.code(refused) == "default_league")

            let deleted = try await admin.call(.DELETE, "leagues/alpha")
            #expect(deleted.status == 204)
            #expect(deleted.body.isEmpty)
            #expect(deleted.header("content-length") == nil)
            let (_, code) = try await inAlpha.readUntilClosed()
            #expect(code == 4404, "unknown_league: the league is gone")

            let gone = try await admin.call(.GET, "leagues/alpha/players")
            #expect(gone.status == 404)
            #expect(try Support.code(gone) == "unknown_league")
            #expect(try await admin.call(.DELETE, "leagues/alpha").status == 404)
            #expect(try await Support.listed(admin).map(\.id) == ["default"])

            // The default league's session is untouched: it still gets the default league's changes.
            #expect(try await admin.call(.POST, "players", json: #"{"name":"Bo"}"#).status == 201)
            let next = try await inDefault.collect { if case .changeset = $0 { true } else { false } }
            #expect(next.count >= 1)
            try await inDefault.client.close(code: 1000)
        }
    }

    @Test("/healthz keeps its fields and counts the leagues loaded besides the default one")
    func healthCountsLoadedLeagues() async throws {
        try await withTestDaemon { daemon in
            let connector = try daemon.connector()
            let before = try await TestHTTPSClient.get(connector, path: "/healthz")
            #expect(before.bodyText.hasSuffix(#","leagues_loaded":0}"#))
            for field in [
                "status", "node", "head", "digest", "epoch", "connections", "store", "store_head", "trailing",
            ] {
                #expect(before.bodyText.contains("\"\(field)\":"), "\(field)")
            }
            try await Support.createLeagues(daemon, [Support.alpha])
            let api = RESTTestClient(connector: connector, token: daemon.tokens.viewer)
            #expect(try await api.call(.GET, "leagues/alpha/players").status == 200)
            let after = try await TestHTTPSClient.get(connector, path: "/healthz")
            #expect(after.bodyText.hasSuffix(#","leagues_loaded":1}"#), "alpha stays loaded until idle (300 s)")
        }
    }
}
