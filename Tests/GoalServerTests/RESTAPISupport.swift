import Foundation
import GoalTestSupport
import GoalTransport
import NIOHTTP1
import Testing

/// Calls the HTTP API of a test daemon with one token (or none), over real TLS, one connection per request.
struct RESTTestClient {
    let connector: TestTLSConnector
    let token: String?

    func call(
        _ method: HTTPMethod,
        _ path: String,
        json: String? = nil,
        headers: [(name: String, value: String)] = []
    ) async throws -> TestHTTPResponse {
        try await call(method, path, body: json.map { Array($0.utf8) }, headers: headers)
    }

    /// A request with any body bytes and `Content-Type` (nil: none).
    func call(
        _ method: HTTPMethod,
        _ path: String,
        body: [UInt8]?,
        contentType: String? = "application/json",
        headers: [(name: String, value: String)] = []
    ) async throws -> TestHTTPResponse {
        var all = headers
        if let token { all.append((name: "Authorization", value: "Bearer \(token)")) }
        let response = try await TestHTTPSClient.request(
            connector,
            method: method,
            path: "/api/v1/" + path,
            headers: all,
            body: body,
            contentType: contentType
        )
        // Every live test is also a check of docs/openapi.yaml: a status the document does not list for the
        // operation is a failure (unknown routes and other methods have no operation and are not checked).
        if let documented = OpenAPIDocumentModel.served.statuses(method: method.rawValue, path: "/api/v1/" + path),
            !documented.contains(response.status)
        {
            Issue.record(
                "\(method.rawValue) /api/v1/\(path) answered \(response.status), not in docs/openapi.yaml \(documented.sorted())"
            )
        }
        return response
    }

    /// The body as a JSON object.
    static func object(_ response: TestHTTPResponse) throws -> [String: Any] {
        try (JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]) ?? [:]
    }

    /// The body as a JSON array of objects.
    static func array(_ response: TestHTTPResponse) throws -> [[String: Any]] {
        try (JSONSerialization.jsonObject(with: Data(response.body)) as? [[String: Any]]) ?? []
    }

    /// Creates a player and returns its id.
    func createPlayer(_ name: String) async throws -> String {
        let response = try await call(.POST, "players", json: #"{"name":"\#(name)"}"#)
        guard response.status == 201, let id = try Self.object(response)["id"] as? String else {
            throw RESTTestError.unexpected(response.status, response.bodyText)
        }
        return id
    }

    /// Creates a match and returns its id.
    func createMatch(home: [String], away: [String], _ homeGoals: Int, _ awayGoals: Int) async throws -> String {
        let response = try await call(.POST, "matches", json: Self.matchJSON(home, away, homeGoals, awayGoals))
        guard response.status == 201, let id = try Self.object(response)["id"] as? String else {
            throw RESTTestError.unexpected(response.status, response.bodyText)
        }
        return id
    }

    static func matchJSON(_ home: [String], _ away: [String], _ homeGoals: Int, _ awayGoals: Int) -> String {
        let quoted = { (ids: [String]) in ids.map { "\"\($0)\"" }.joined(separator: ",") }
        return #"{"home_goals":\#(homeGoals),"away_goals":\#(awayGoals),"home_player_ids":[\#(quoted(home))],"#
            + #""away_player_ids":[\#(quoted(away))]}"#
    }
}

enum RESTTestError: Error {
    case unexpected(Int, String)
}
