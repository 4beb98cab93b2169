import Foundation
import GoalTestSlots
import GoalTestSupport
import NIOHTTP1
import Testing

/// Goalbase's own expectations of its API, against a live goald over TLS: ratings rounded to 3 decimals, form
/// bodies (what its request specs and `curl -d` send), 415 for other bodies, bytes that are not UTF-8 refused
/// and never stored, and HEAD (docs/HTTP.md).
@Suite("HTTP API: Goalbase's rounding, form bodies, UTF-8 and HEAD", .slotted)
struct RESTAPIGoalbaseTests {
    private static let form = "application/x-www-form-urlencoded"

    @Test("rankings: spec/api/rankings_spec.rb's [p2 6.667, p3 3.333, p1 0.0], as Float#round(3) writes them")
    func ratingsRoundedToThreeDecimals() async throws {
        try await withTestDaemon { daemon in
            let api = RESTTestClient(connector: try daemon.connector(), token: daemon.tokens.editor)
            let p1 = try await api.createPlayer("p1")
            let p2 = try await api.createPlayer("p2")
            let p3 = try await api.createPlayer("p3")
            _ = try await api.createMatch(home: [p1], away: [p2], 0, 1)
            _ = try await api.createMatch(home: [p2], away: [p3], 0, 0)
            let rankings = try await api.call(.GET, "rankings")
            #expect(rankings.status == 200)
            #expect(
                rankings.bodyText == "["
                    + #"{"player":{"id":"\#(p2)","name":"p2"},"rating":6.667},"#
                    + #"{"player":{"id":"\#(p3)","name":"p3"},"rating":3.333},"#
                    + #"{"player":{"id":"\#(p1)","name":"p1"},"rating":0.0}]"#,
                "\(rankings.bodyText)"
            )
        }
    }

    @Test("a form body creates players and matches and replaces a match, with Goalbase's parameter names")
    func formBodies() async throws {
        try await withTestDaemon { daemon in
            let api = RESTTestClient(connector: try daemon.connector(), token: daemon.tokens.editor)
            let created = try await api.call(
                .POST,
                "players",
                body: Array("name=Ada+Lovelace%21".utf8),
                contentType: Self.form
            )
            #expect(created.status == 201, "\(created.bodyText)")
            let ada = try #require(try RESTTestClient.object(created)["id"] as? String)
            #expect(try RESTTestClient.object(created)["name"] as? String == "Ada Lovelace!")
            let bob = try await api.createPlayer("Bob")
            let cy = try await api.createPlayer("Cy")
            let matchForm =
                "home_goals=2&away_goals=1&home_player_ids%5B%5D=\(ada)&home_player_ids[]=\(cy)"
                + "&away_player_ids[]=\(bob)"
            let match = try await api.call(.POST, "matches", body: Array(matchForm.utf8), contentType: Self.form)
            #expect(match.status == 201, "\(match.bodyText)")
            let body = try RESTTestClient.object(match)
            let id = try #require(body["id"] as? String)
            #expect(
                (body["home_players"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Ada Lovelace!", "Cy"]
            )
            #expect(body["home_goals"] as? Int == 2)
            let replace = "home_goals=0&away_goals=3&home_player_ids[]=\(bob)&away_player_ids[]=\(ada)"
            let put = try await api.call(
                .PUT,
                "matches/\(id)",
                body: Array(replace.utf8),
                contentType: "application/x-www-form-urlencoded; charset=UTF-8"
            )
            #expect(put.status == 200, "\(put.bodyText)")
            #expect(try RESTTestClient.object(put)["away_goals"] as? Int == 3)
            // The same rules answer as for JSON: a player on both sides is 422, a missing list 400.
            let both = "home_goals=1&away_goals=0&home_player_ids[]=\(ada)&away_player_ids[]=\(ada)"
            let refused = try await api.call(.POST, "matches", body: Array(both.utf8), contentType: Self.form)
            #expect(refused.status == 422)
            #expect(try RESTTestClient.object(refused)["code"] as? String == "player_on_both_sides")
            let missing = try await api.call(
                .POST,
                "matches",
                body: Array("home_goals=1&away_goals=0&home_player_ids[]=\(ada)".utf8),
                contentType: Self.form
            )
            #expect(missing.status == 400)
            #expect(try RESTTestClient.object(missing)["response"] as? String == "away_player_ids[] is missing")
            let fraction = try await api.call(
                .POST,
                "matches",
                body: Array("home_goals=1.5&away_goals=0&home_player_ids[]=\(ada)&away_player_ids[]=\(bob)".utf8),
                contentType: Self.form
            )
            #expect(fraction.status == 400)
            #expect(
                try RESTTestClient.object(fraction)["response"] as? String
                    == #"home_goals must be an integer, not "1.5""#
            )
        }
    }

    @Test("a body that is neither JSON nor a form, or has no Content-Type, or another charset, is 415")
    func unsupportedMediaTypes() async throws {
        try await withTestDaemon { daemon in
            let api = RESTTestClient(connector: try daemon.connector(), token: daemon.tokens.editor)
            let json = Array(#"{"name":"Ada"}"#.utf8)
            for contentType in ["text/plain", "application/xml", "application/json; charset=iso-8859-1", nil] {
                let response = try await api.call(.POST, "players", body: json, contentType: contentType)
                #expect(response.status == 415, "\(contentType ?? "none")")
                #expect(try RESTTestClient.object(response)["code"] as? String == "unsupported_media_type")
            }
            let accepted = try await api.call(
                .POST,
                "players",
                body: json,
                contentType: "Application/JSON; charset=utf-8"
            )
            #expect(accepted.status == 201)
            #expect(try RESTTestClient.array(try await api.call(.GET, "players")).count == 1, "nothing else stored")
        }
    }

    @Test("bytes that are not UTF-8 are 400 naming the problem, in JSON and in a form, and nothing is stored")
    func invalidUTF8IsRefused() async throws {
        try await withTestDaemon { daemon in
            let api = RESTTestClient(connector: try daemon.connector(), token: daemon.tokens.editor)
            let json = Array(#"{"name":"Ad"#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8)
            let refused = try await api.call(.POST, "players", body: json)
            #expect(refused.status == 400)
            #expect(
                try RESTTestClient.object(refused)["response"] as? String == "the body is not valid UTF-8 (byte 11)"
            )
            let form = try await api.call(.POST, "players", body: Array("name=Ad%FF".utf8), contentType: Self.form)
            #expect(form.status == 400)
            #expect(
                try RESTTestClient.object(form)["response"] as? String
                    == "the value of name is not valid UTF-8 (byte 2 once decoded)"
            )
            let escape = try await api.call(.POST, "players", body: Array("name=Ad%F".utf8), contentType: Self.form)
            #expect(escape.status == 400)
            #expect(try RESTTestClient.array(try await api.call(.GET, "players")).isEmpty, "nothing stored")
        }
    }

    @Test("HEAD is GET's status and headers without the body: the API, 304, /healthz and the page")
    func head() async throws {
        try await withTestDaemon { daemon in
            let connector = try daemon.connector()
            let api = RESTTestClient(connector: connector, token: daemon.tokens.editor)
            _ = try await api.createPlayer("Ada")
            for path in ["players", "matches", "rankings", "openapi.json"] {
                let get = try await api.call(.GET, path)
                let head = try await api.call(.HEAD, path)
                #expect(head.status == 200, "\(path)")
                #expect(head.body.isEmpty, "\(path)")
                #expect(head.header("content-length") == String(get.body.count), "\(path)")
                #expect(head.header("etag") == get.header("etag"), "\(path)")
            }
            let etag = try #require(try await api.call(.GET, "players").header("etag"))
            let notModified = try await api.call(.HEAD, "players", headers: [(name: "If-None-Match", value: etag)])
            #expect(notModified.status == 304)
            #expect(try await RESTTestClient(connector: connector, token: nil).call(.HEAD, "players").status == 401)
            for path in ["/healthz", "/"] {
                let get = try await TestHTTPSClient.request(connector, method: .GET, path: path)
                let head = try await TestHTTPSClient.request(connector, method: .HEAD, path: path)
                #expect(head.status == 200, "\(path)")
                #expect(head.body.isEmpty, "\(path)")
                #expect(head.header("content-type") == get.header("content-type"), "\(path)")
            }
        }
    }
}
