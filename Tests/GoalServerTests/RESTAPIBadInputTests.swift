import Foundation
import GoalServer
import GoalTestSlots
import GoalTestSupport
import NIOHTTP1
import Testing

/// Bad input to the HTTP API gets its documented answer (docs/HTTP.md) and harms no other connection: after each
/// case a second client still reads and writes.
@Suite("HTTP API: bad input", .slotted)
struct RESTAPIBadInputTests {
    /// Proves the daemon still serves other clients: a write and a read on fresh connections.
    private func othersUnharmed(_ daemon: TestDaemon, _ name: String) async throws {
        let api = RESTTestClient(connector: try daemon.connector(), token: daemon.tokens.editor)
        _ = try await api.createPlayer(name)
        let names = try RESTTestClient.array(try await api.call(.GET, "players")).compactMap { $0["name"] as? String }
        #expect(names.contains(name))
    }

    @Test("a PUT with a bad body is 400 or 422 even with a stale If-Match (the body is checked first, never 412)")
    func putChecksBodyBeforeIfMatch() async throws {
        try await withTestDaemon { daemon in
            let api = RESTTestClient(connector: try daemon.connector(), token: daemon.tokens.editor)
            let ada = try await api.createPlayer("Ada")
            let bob = try await api.createPlayer("Bob")
            let match = try await api.createMatch(home: [ada], away: [bob], 1, 0)
            let stale = [(name: "If-Match", value: "\"999\"")]
            let cases: [(String?, Int, String)] = [
                (nil, 400, "invalid"),
                (
                    #"{"home_goals":1,"away_goals":0,"home_player_ids":["\#(ada)"],"away_player_ids":[""]}"#, 422,
                    "unknown_player"
                ),
                (RESTTestClient.matchJSON([ada], [bob], 1000, 0), 422, "goals_out_of_range"),
                (RESTTestClient.matchJSON([ada], [], 1, 0), 422, "empty_side"),
            ]
            for (body, status, code) in cases {
                let response = try await api.call(.PUT, "matches/\(match)", json: body, headers: stale)
                #expect(response.status == status, "\(body ?? "no body")")
                #expect(try RESTTestClient.object(response)["code"] as? String == code)
            }
            let good = try await api.call(
                .PUT,
                "matches/\(match)",
                json: RESTTestClient.matchJSON([ada], [bob], 2, 2),
                headers: stale
            )
            #expect(good.status == 412)
        }
    }

    @Test("malformed JSON, wrong types and missing fields are 400 with Goalbase's error body and goald's code")
    func badBodies() async throws {
        try await withTestDaemon { daemon in
            let api = RESTTestClient(connector: try daemon.connector(), token: daemon.tokens.editor)
            let ada = try await api.createPlayer("Ada")
            let bodies = [
                ("players", "{\"name\":"),
                ("players", "[]"),
                ("players", "{\"name\":3}"),
                ("players", "{}"),
                ("matches", #"{"home_goals":"1","away_goals":0,"home_player_ids":[],"away_player_ids":[]}"#),
                ("matches", #"{"home_goals":1.5,"away_goals":0,"home_player_ids":[],"away_player_ids":[]}"#),
                ("matches", #"{"home_goals":1,"away_goals":0,"home_player_ids":[1],"away_player_ids":[]}"#),
                ("matches", #"{"home_goals":1,"away_goals":0,"home_player_ids":["\#(ada)"]}"#),
            ]
            for (path, body) in bodies {
                let response = try await api.call(.POST, path, json: body)
                #expect(response.status == 400, "\(body)")
                let error = try RESTTestClient.object(response)
                #expect(error["response_type"] as? String == "error")
                #expect(error["code"] as? String == "invalid")
                #expect((error["response"] as? String)?.isEmpty == false)
            }
            let blank = try await api.call(.POST, "players", json: #"{"name":"   "}"#)
            #expect(blank.status == 422)
            let goals = try await api.call(.POST, "matches", json: RESTTestClient.matchJSON([ada], [ada], -1, 0))
            #expect(goals.status == 422)
            try await othersUnharmed(daemon, "Bob")
        }
    }

    @Test(
        "a name's length counts grapheme clusters, as docs/openapi.yaml says (schemathesis found maxLength: 64 wrong)"
    )
    func nameLengthCountsGraphemes() async throws {
        try await withTestDaemon { daemon in
            let api = RESTTestClient(connector: try daemon.connector(), token: daemon.tokens.editor)
            // 64 clusters of "e" with U+0316 (combining grave accent below), which NFC leaves uncomposed: 128 code
            // points.
            let accented = String(repeating: "e\u{0316}", count: 64)
            #expect(accented.unicodeScalars.count == 128 && accented.count == 64)
            let created = try await api.call(.POST, "players", json: #"{"name":"\#(accented)"}"#)
            #expect(created.status == 201, "64 grapheme clusters are valid, whatever their code points")
            let tooLong = try await api.call(.POST, "players", json: #"{"name":"\#(accented)e"}"#)
            #expect(tooLong.status == 422)
            #expect(try RESTTestClient.object(tooLong)["code"] as? String == "name_too_long")
        }
    }

    @Test("a body over the limit is 413 and the connection closes; others are unharmed")
    func oversizedBody() async throws {
        let small = ServerLimits(maxInboundMessageBytes: 1024)
        try await withTestDaemon(limits: small) { daemon in
            let announced = try await TestRawTLSConnection.connect(try daemon.connector())
            try await announced.send(
                "POST /api/v1/players HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(daemon.tokens.editor)\r\n"
                    + "Content-Length: 5000\r\n\r\n"
            )
            let first = try await announced.readUntilClosed()
            #expect(String(decoding: first.bytes, as: UTF8.self).hasPrefix("HTTP/1.1 413"))

            let chunked = try await TestRawTLSConnection.connect(try daemon.connector())
            let chunk = String(repeating: "a", count: 800)
            try await chunked.send(
                "POST /api/v1/players HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(daemon.tokens.editor)\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n320\r\n\(chunk)\r\n320\r\n\(chunk)\r\n"
            )
            let second = try await chunked.readUntilClosed()
            #expect(String(decoding: second.bytes, as: UTF8.self).hasPrefix("HTTP/1.1 413"))
            try await othersUnharmed(daemon, "Ada")
        }
    }

    @Test("a body that does not arrive in time is 408 and the connection closes; others are unharmed")
    func slowBody() async throws {
        // The default 10 s deadline: a shorter one would also close a connection whose TLS handshake is slow on a
        // loaded machine before its head arrives (the handshake deadline is the same limit), making this test flaky.
        try await withTestDaemon { daemon in
            let slow = try await TestRawTLSConnection.connect(try daemon.connector())
            try await slow.send(
                "POST /api/v1/players HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(daemon.tokens.editor)\r\n"
                    + "Content-Length: 20\r\n\r\n{\"na"
            )
            try await othersUnharmed(daemon, "Ada")
            let answer = try await slow.readUntilClosed()
            #expect(String(decoding: answer.bytes, as: UTF8.self).hasPrefix("HTTP/1.1 408"))
            let names = try RESTTestClient.array(
                try await RESTTestClient(connector: try daemon.connector(), token: daemon.tokens.editor).call(
                    .GET,
                    "players"
                )
            )
            #expect(names.count == 1, "the slow request wrote nothing")
        }
    }

    @Test("keep-alive serves several requests on one connection, pipelined ones in order")
    func keepAliveAndPipelining() async throws {
        try await withTestDaemon { daemon in
            let connection = try await TestRawTLSConnection.connect(try daemon.connector())
            let auth = "Authorization: Bearer \(daemon.tokens.editor)\r\n"
            let body = #"{"name":"Ada"}"#
            try await connection.send(
                "POST /api/v1/players HTTP/1.1\r\nHost: x\r\n\(auth)Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
                    + "GET /api/v1/players HTTP/1.1\r\nHost: x\r\n\(auth)\r\n"
                    + "GET /api/v1/rankings HTTP/1.1\r\nHost: x\r\n\(auth)Connection: close\r\n\r\n"
            )
            let all = String(decoding: try await connection.readUntilClosed().bytes, as: UTF8.self)
            let statuses = all.components(separatedBy: "HTTP/1.1 ").dropFirst().map { $0.prefix(3) }
            #expect(statuses == ["201", "200", "200"], "\(all)")
            #expect(all.contains(#""name":"Ada""#))
        }
    }
}
