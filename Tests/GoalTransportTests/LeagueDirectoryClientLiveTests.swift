import GoalModel
import GoalTestSlots
import GoalTestSupport
import GoalTransport
import GoalWire
import NIOCore
import Testing

/// `LeagueDirectoryClient` against a real in-process goald: the shapes the daemon writes are the ones the client
/// reads, and its refusals arrive as typed errors with goald's codes.
@Suite("LeagueDirectoryClient against a live daemon", .slotted)
struct LeagueDirectoryClientLiveTests {
    private func client(port: Int, token: String) throws -> LeagueDirectoryClient {
        try LeagueDirectoryClient(
            endpoint: ServerEndpoint(host: "127.0.0.1", port: port),
            security: .caPEM(TestCertificates.shared.caPEM),
            token: token,
            timeout: .seconds(20)
        )
    }

    @Test func anOperatorCreatesAndListsLeaguesAndASecondCreateIsAConflict() async throws {
        try await withTestDaemon { daemon in
            let admin = try client(port: daemon.port, token: daemon.tokens.admin)
            let before = try await admin.listLeagues()
            #expect(before.map(\.id) == [.default])
            #expect(before.first?.role == .admin)
            let office = try LeagueSlug(validating: "office")
            let created = try await admin.createLeague(id: office, name: "The Office")
            #expect(created.id == office)
            #expect(created.name == "The Office")
            #expect(created.role == .admin)
            #expect(!created.created.isEmpty)
            let after = try await admin.listLeagues()
            #expect(after.map(\.id) == [.default, office])
            let again = await #expect(throws: LeagueDirectoryError.self) {
                _ = try await admin.createLeague(id: office, name: "Again")
            }
            #expect(again?.isLeagueExists == true, "\(String(describing: again))")
        }
    }

    @Test func anEditorMayListButNotCreate() async throws {
        try await withTestDaemon { daemon in
            let editor = try client(port: daemon.port, token: daemon.tokens.editor)
            #expect(try await editor.listLeagues().map(\.role) == [.editor])
            let refused = await #expect(throws: LeagueDirectoryError.self) {
                _ = try await editor.createLeague(id: LeagueSlug(validating: "home"), name: "Home")
            }
            #expect(refused?.status == 403, "\(String(describing: refused))")
            let unknown = try client(port: daemon.port, token: "gt_no-such-token")
            let unauthenticated = await #expect(throws: LeagueDirectoryError.self) {
                _ = try await unknown.listLeagues()
            }
            guard case .status(401, let body)? = unauthenticated else {
                Issue.record("expected 401, got \(String(describing: unauthenticated))")
                return
            }
            #expect(body.code == .unauthenticated)
        }
    }
}
