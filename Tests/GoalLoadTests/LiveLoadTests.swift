import GoalTestSlots
import GoalTestSupport
import GoalTransport
import Testing

@testable import goal_load

/// goal-load against a real in-process goald over loopback TLS: the whole pipeline, bounded and small.
@Suite("goal-load against a live daemon", .serialized, .slotted)
struct LiveLoadTests {
    private func configuration(
        port: Int,
        token: String,
        _ change: (inout LoadConfiguration.Shape) -> Void
    ) throws
        -> LoadConfiguration
    {
        var shape = LoadConfiguration.Shape()
        shape.subscribers = 6
        shape.writers = 2
        shape.rate = 60
        shape.duration = 1.5
        shape.sampled = 2
        shape.players = 4
        shape.matches = 3
        change(&shape)
        var configuration = LoadConfiguration(
            endpoint: try ServerEndpoint(parsing: "wss://127.0.0.1:\(port)"),
            security: .caPEM(TestCertificates.shared.caPEM),
            token: token,
            scenario: nil,
            shape: shape
        )
        configuration.progressInterval = nil
        configuration.settleTimeout = 20
        return configuration
    }

    @Test func aMixedLoadConvergesAndEveryCommitReachesEverySubscriber() async throws {
        let report = try await withTestDaemon { daemon in
            let configuration = try configuration(port: daemon.port, token: daemon.tokens.editor) { _ in }
            return try await LoadRunner(configuration: configuration, progress: { _ in }).run()
        }
        #expect(report.convergence.converged, "\(report.convergence.problems)")
        #expect(report.connections.subscribersConnected == 6)
        #expect(report.connections.writersConnected == 2)
        #expect(report.commits.accepted > 0)
        #expect(report.convergence.sampledReplicasChecked == 2)
        #expect(report.convergence.subscribersAtHead == 6)
        // Deliveries during the measured phase cannot exceed one per subscriber per commit ever made.
        #expect(report.deliveries.total <= 6 * Int(report.convergence.head))
        #expect(report.latency.samples > 0)
        #expect(report.text.contains("convergence: OK"))
    }

    @Test func aLaggingSubscriberCatchesUpFromTheBacklog() async throws {
        let report = try await withTestDaemon { daemon in
            let configuration = try configuration(port: daemon.port, token: daemon.tokens.editor) { shape in
                shape.subscribers = 1
                shape.sampled = 1
                shape.rate = 0
                shape.window = 8
                shape.duration = 30
                shape.catchupChangesets = 150
                shape.maxCommits = 150
                shape.mix = MutationMix(adjust: 1)
            }
            return try await LoadRunner(configuration: configuration, progress: { _ in }).run()
        }
        #expect(report.convergence.converged, "\(report.convergence.problems)")
        let catchup = try #require(report.catchup)
        #expect(catchup.changesets >= 150)
        #expect(report.commits.accepted >= 150)
    }

    @Test func aViewerTokenCannotSetUp() async throws {
        await #expect(throws: LoadError.self) {
            try await withTestDaemon { daemon in
                let configuration = try configuration(port: daemon.port, token: daemon.tokens.viewer) { _ in }
                return try await LoadRunner(configuration: configuration, progress: { _ in }).run()
            }
        }
    }
}
