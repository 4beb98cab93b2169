import GoalClient
import GoalModel
import GoalTestSlots
import GoalTestSupport
import GoalTransport
import GoalWire
import NIOCore
import NIOHTTP1
import Testing

@Suite("LeagueDirectoryClient: the league routes over HTTPS", .slotted)
struct LeagueDirectoryClientTests {
    private static let office = #"{"id":"office","name":"Office","created":"2026-11-29T09:00:00Z","role":"admin"}"#

    private func client(port: Int, security: TransportSecurity? = nil) throws -> LeagueDirectoryClient {
        try LeagueDirectoryClient(
            endpoint: ServerEndpoint(host: "127.0.0.1", port: port),
            security: security ?? .caPEM(TestCertificates.shared.caPEM),
            token: "tok-123",
            timeout: .seconds(20)
        )
    }

    @Test("listLeagues sends GET /api/v1/leagues with the bearer token and reads every league")
    func list() async throws {
        let body = #"{"leagues":["# + Self.office + #",{"id":"home","name":"Home","created":"x","role":"viewer"}]}"#
        try await TestHTTPSServer.with(status: .ok, answer: body) { server in
            let leagues = try await client(port: server.port).listLeagues()
            let request = try await server.requests.next()
            #expect(request.method == .GET)
            #expect(request.uri == "/api/v1/leagues")
            #expect(request.headers["authorization"] == ["Bearer tok-123"])
            #expect(request.headers["host"] == ["127.0.0.1:\(server.port)"])
            #expect(leagues.map(\.id.rawValue) == ["office", "home"])
            #expect(leagues.map(\.role) == [.admin, .viewer])
            #expect(leagues.first?.name == "Office")
            #expect(leagues.first?.created == "2026-11-29T09:00:00Z")
        }
    }

    @Test("createLeague POSTs {id,name} as JSON and reads the 201's league")
    func create() async throws {
        try await TestHTTPSServer.with(status: .created, answer: Self.office) { server in
            let league = try await client(port: server.port).createLeague(
                id: LeagueSlug(validating: "office"),
                name: "Office \"HQ\""
            )
            let request = try await server.requests.next()
            #expect(request.method == .POST)
            #expect(request.uri == "/api/v1/leagues")
            #expect(request.headers["content-type"] == ["application/json"])
            #expect(String(decoding: request.body, as: UTF8.self) == #"{"id":"office","name":"Office \"HQ\""}"#)
            #expect(
                league
                    == LeagueListing(
                        id: try LeagueSlug(validating: "office"),
                        name: "Office",
                        created: "2026-11-29T09:00:00Z",
                        role: .admin
                    )
            )
        }
    }

    @Test("a 409 is a typed error with the status and goald's error body")
    func conflict() async throws {
        let body = #"{"response_type":"error","response":"league office exists","code":"league_exists"}"#
        try await TestHTTPSServer.with(status: .conflict, answer: body) { server in
            await #expect(
                throws: LeagueDirectoryError.status(
                    409,
                    RESTErrorBody(message: "league office exists", code: RESTErrorCode(rawValue: "league_exists"))
                )
            ) {
                _ = try await client(port: server.port).createLeague(
                    id: LeagueSlug(validating: "office"),
                    name: "Office"
                )
            }
            let error = await #expect(throws: LeagueDirectoryError.self) {
                _ = try await client(port: server.port).createLeague(
                    id: LeagueSlug(validating: "office"),
                    name: "Office"
                )
            }
            #expect(error?.isLeagueExists == true)
        }
    }

    @Test("a status with a body that is not goald's error shape keeps the body's text")
    func plainStatus() async throws {
        try await TestHTTPSServer.with(status: .unauthorized, answer: "no token") { server in
            await #expect(throws: LeagueDirectoryError.status(401, RESTErrorBody(message: "no token", code: nil))) {
                _ = try await client(port: server.port).listLeagues()
            }
        }
    }

    @Test("a 200 that is not {\"leagues\":[…]} is a malformed response naming the field")
    func malformed() async throws {
        let body = #"{"leagues":[{"id":"Bad Id","name":"x","created":"x","role":"admin"}]}"#
        try await TestHTTPSServer.with(status: .ok, answer: body) { server in
            let error = await #expect(throws: LeagueDirectoryError.self) {
                _ = try await client(port: server.port).listLeagues()
            }
            guard case .malformedResponse(let status, let decoding)? = error else {
                Issue.record("expected malformedResponse, got \(String(describing: error))")
                return
            }
            #expect(status == 200)
            #expect(decoding.path == "leagues.leagues[0].id")
        }
    }

    @Test("a refused port is a transport failure, .cannotConnect")
    func refused() async throws {
        let refused = try ClosedPort()
        let error = await #expect(throws: LeagueDirectoryError.self) {
            _ = try await client(port: refused.port).listLeagues()
        }
        withExtendedLifetime(refused) {}
        guard case .transport(let failure)? = error else {
            Issue.record("expected a transport failure, got \(String(describing: error))")
            return
        }
        #expect(failure.kind == .cannotConnect)
        #expect(error?.status == nil)
    }

    @Test("a certificate from another CA is a transport failure, .tls, and nothing is sent")
    func wrongCA() async throws {
        try await TestHTTPSServer.with(status: .ok, answer: #"{"leagues":[]}"#) { server in
            let otherCA = try TestCertificates()
            let error = await #expect(throws: LeagueDirectoryError.self) {
                _ = try await client(port: server.port, security: .caPEM(otherCA.caPEM)).listLeagues()
            }
            guard case .transport(let failure)? = error else {
                Issue.record("expected a transport failure, got \(String(describing: error))")
                return
            }
            #expect(failure.kind == .tls)
            #expect(failure.message.contains("certificate not trusted"))
            // A request is recorded only once it arrived whole over TLS, which never completed.
            #expect(server.requests.buffered.isEmpty)
        }
    }
}
