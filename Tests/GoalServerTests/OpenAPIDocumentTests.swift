import Foundation
@_spi(Testing) import GoalServer
import GoalTestSlots
import GoalTestSupport
import NIOHTTP1
import Testing
import Yams

/// docs/openapi.yaml against the code: the embedded copy goald serves is the same document, the router answers
/// exactly the documented operations (and `Allow` lists the documented methods), and goald serves it without a
/// token. (Every live HTTP API test also checks each status it sees against the document: RESTTestClient.call.)
@Suite("HTTP API: docs/openapi.yaml matches the code", .slotted)
struct OpenAPIDocumentTests {
    static let yamlPath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/openapi.yaml").path

    /// Both forms as canonical JSON text (sorted keys), so equal documents compare equal whatever their layout.
    static func canonical(_ object: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    @Test("the served JSON is docs/openapi.yaml (regenerate with .ci/openapi-json)")
    func embeddedCopyIsTheDocument() throws {
        let yaml = try String(contentsOfFile: Self.yamlPath, encoding: .utf8)
        let fromYAML = try #require(try Yams.load(yaml: yaml))
        let embedded = try JSONSerialization.jsonObject(with: Data(RESTRouteTable.openAPIJSON.utf8))
        #expect(try Self.canonical(fromYAML) == Self.canonical(embedded), "run .ci/openapi-json and commit")
        let document = try #require(embedded as? [String: Any])
        #expect(document["openapi"] as? String == "3.1.0")
    }

    @Test("the router answers exactly the documented operations; 405's Allow lists the documented methods")
    func routerMatchesDocument() {
        let model = OpenAPIDocumentModel.served
        // Goalbase's 9 and 4 HEADs, the league directory's 4 and a HEAD, one league's 8 and 3 HEADs.
        #expect(model.operations.count == 29)
        #expect(model.differences() == [])
    }

    @Test("the drift check fails for a document that lost an operation, gained one, or dropped a 2xx")
    func driftIsDetected() {
        var operations = OpenAPIDocumentModel.served.operations
        operations["DELETE /api/v1/players/{id}"] = nil
        operations["PATCH /api/v1/matches/{id}"] = [200]
        operations["GET /api/v1/rankings"] = [304, 401]
        let differences = OpenAPIDocumentModel(operations: operations).differences()
        #expect(differences.contains("documented, not routed: PATCH /api/v1/matches/{id}"))
        #expect(differences.contains("undocumented route: DELETE /api/v1/players/{id}"))
        #expect(differences.contains("GET /api/v1/rankings documents no 2xx"))
        #expect(
            OpenAPIDocumentModel.served.statuses(method: "PUT", path: "/api/v1/matches/x?y=1")?.contains(412) == true
        )
        #expect(OpenAPIDocumentModel.served.statuses(method: "PUT", path: "/api/v1/players/x") == nil)
    }

    @Test("GET /api/v1/openapi.json serves the embedded document without a token, as JSON")
    func servedWithoutToken() async throws {
        try await withTestDaemon { daemon in
            let api = RESTTestClient(connector: try daemon.connector(), token: nil)
            let response = try await api.call(.GET, "openapi.json")
            #expect(response.status == 200)
            #expect(response.header("content-type") == "application/json")
            #expect(response.bodyText == RESTRouteTable.openAPIJSON)
            let refused = try await api.call(.POST, "openapi.json", json: "{}")
            #expect(refused.status == 405)
            #expect(refused.header("allow") == "GET, HEAD")
        }
    }
}
