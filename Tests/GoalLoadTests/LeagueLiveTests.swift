import GoalModel
import GoalStore
import GoalTestSlots
import GoalTestSupport
import GoalTransport
import GoalWire
import Testing

@testable import goal_load

/// `goal-load --leagues 3` against a real in-process goald (issue 37 point 7): the leagues are created over the
/// HTTP API, every hello names its league, each league converges on its own head, and nothing crosses leagues.
@Suite("goal-load over several leagues against a live daemon", .serialized, .slotted)
struct LeagueLiveTests {
    private func configuration(port: Int, token: String, leagues: Int) throws -> LoadConfiguration {
        var shape = LoadConfiguration.Shape()
        shape.subscribers = 6
        shape.writers = 3
        shape.leagues = leagues
        shape.rate = 60
        shape.duration = 1.5
        shape.sampled = 3
        shape.players = 3
        shape.matches = 2
        var configuration = LoadConfiguration(
            endpoint: try ServerEndpoint(parsing: "wss://127.0.0.1:\(port)"),
            security: .caPEM(TestCertificates.shared.caPEM),
            token: token,
            scenario: nil,
            shape: shape
        )
        configuration.leagues = try LeagueSpread(count: leagues, prefix: nil)
        configuration.progressInterval = nil
        configuration.settleTimeout = 20
        return configuration
    }

    @Test func threeLeaguesAreCreatedAndEachConvergesOnItsOwnHead() async throws {
        let (report, created) = try await withTestDaemon { daemon in
            let configuration = try configuration(port: daemon.port, token: daemon.tokens.admin, leagues: 3)
            let report = try await LoadRunner(configuration: configuration, progress: { _ in }).run()
            return (report, try daemon.catalog().leagues().map(\.slug.rawValue))
        }
        #expect(Set(["load-1", "load-2", "load-3"]).isSubset(of: Set(created)), "\(created)")
        #expect(report.convergence.converged, "\(report.convergence.problems)")
        let leagues = try #require(report.leagues)
        #expect(leagues.map(\.id) == ["load-1", "load-2", "load-3"])
        #expect(leagues.map(\.subscribers) == [2, 2, 2])
        #expect(leagues.map(\.writers) == [1, 1, 1])
        #expect(leagues.allSatisfy { $0.convergence.converged && $0.convergence.subscribersAtHead == 2 })
        // Each league has its own history: its head counts its own setup and its one writer's commits only.
        let heads = leagues.map(\.convergence.head)
        #expect(heads.reduce(0, +) >= UInt64(report.commits.accepted), "\(heads) vs \(report.commits.accepted)")
        #expect(Set(leagues.map(\.convergence.headDigest)).count == 3, "three leagues, three digest chains")
        #expect(report.convergence.subscribersAtHead == 6)
        #expect(report.commits.accepted > 0)
        #expect(report.text.contains("leagues: 3 (load-1 … load-3), 3 converged"))
        #expect(report.document.json.contains(#""leagues":[{"#))
    }

    @Test func existingLeaguesNeedNoOperatorToken() async throws {
        let report = try await withTestDaemon { daemon in
            for slug in ["load-1", "load-2"] { try daemon.createLeague(slug) }
            let configuration = try configuration(port: daemon.port, token: daemon.tokens.editor, leagues: 2)
            return try await LoadRunner(configuration: configuration, progress: { _ in }).run()
        }
        #expect(report.convergence.converged, "\(report.convergence.problems)")
        #expect(report.leagues?.count == 2)
    }

    @Test func aMissingLeagueAndAnEditorTokenIsARefusalThatNamesTheOperatorToken() async throws {
        let error = await #expect(throws: LoadError.self) {
            try await withTestDaemon { daemon in
                try daemon.createLeague("load-1")
                let configuration = try configuration(port: daemon.port, token: daemon.tokens.editor, leagues: 2)
                return try await LoadRunner(configuration: configuration, progress: { _ in }).run()
            }
        }
        #expect(error?.message.contains("cannot create league load-2") == true, "\(String(describing: error))")
        #expect(error?.message.contains("operator token") == true)
    }
}
