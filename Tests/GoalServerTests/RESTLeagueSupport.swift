import Foundation
import GoalModel
import GoalStore
import GoalTestSupport
import NIOHTTP1
import Testing

/// What the league tests of the HTTP API share: league ids, tokens confined to leagues, and the league calls.
enum RESTLeagueSupport {
    static let alpha = "alpha"
    static let beta = "beta"

    /// Creates a token with these grants (`StoredToken.leagues`) in the daemon's store and returns its secret.
    static func confinedToken(_ daemon: TestDaemon, _ name: String, _ grants: [String: Role]) throws -> String {
        let secret = "gt_test-\(name)-secret"
        var leagues: [LeagueSlug: Role] = [:]
        for (slug, role) in grants { leagues[try LeagueSlug(validating: slug)] = role }
        try daemon.storage.createToken(
            StoredToken(
                name: name,
                role: .viewer,
                secretHash: TestDaemon.hash(secret),
                created: Timestamp(millisecondsSince1970: 1_767_225_600_000),
                leagues: leagues
            )
        )
        return secret
    }

    /// Creates the leagues `ids` with the daemon's operator token (`POST /api/v1/leagues`), each answered 201.
    static func createLeagues(_ daemon: TestDaemon, _ ids: [String]) async throws {
        let admin = RESTTestClient(connector: try daemon.connector(), token: daemon.tokens.admin)
        for id in ids {
            let response = try await admin.call(.POST, "leagues", json: #"{"id":"\#(id)","name":"League \#(id)"}"#)
            guard response.status == 201 else { throw RESTTestError.unexpected(response.status, response.bodyText) }
        }
    }

    /// The error body's `code`.
    static func code(_ response: TestHTTPResponse) throws -> String? {
        try RESTTestClient.object(response)["code"] as? String
    }

    /// The ids of `GET /api/v1/leagues` with the caller's role in each, in the order listed.
    static func listed(_ api: RESTTestClient) async throws -> [(id: String, role: String)] {
        let response = try await api.call(.GET, "leagues")
        guard response.status == 200 else { throw RESTTestError.unexpected(response.status, response.bodyText) }
        let leagues = try RESTTestClient.object(response)["leagues"] as? [[String: Any]] ?? []
        return leagues.map { ($0["id"] as? String ?? "?", $0["role"] as? String ?? "?") }
    }
}
