import Foundation
import GoalClient
import GoalModel
import GoalPostgres
import GoalReactive
import GoalServer
import GoalStore
import GoalTestSlots
import GoalTestSupport
import GoalWire
import Logging
import Synchronization
import Testing

/// Which node a client is on: goald names itself in `welcome.node` (its `nodeId`), and `GoalClient.server` shows it.
@Suite("Live: welcome names the node", .slotted)
struct LiveNodeNameTests {
    @Test("welcome.node carries the node id goald was configured with")
    func welcomeNamesTheNode() async throws {
        let named: (inout ServerConfiguration) -> Void = { $0.nodeID = "goald-east-1" }
        try await withTestDaemon(configure: named) { daemon in
            let session = try await TestSession.open(daemon, token: daemon.tokens.viewer)
            #expect(session.welcome.node == "goald-east-1")

            let transport = try NodeListTransport(ports: [daemon.port])
            let client = LiveFailoverTests.client(transport, token: daemon.tokens.viewer, instance: "node-name")
            client.start()
            defer { client.stop() }
            try await pollUntil("the client live") { client.status.value.isLive }
            #expect(
                client.server.value
                    == ServerLocation(
                        index: 0,
                        name: LiveFailoverTests.servers[0],
                        node: "goald-east-1",
                        protocolVersion: 2
                    )
            )
        }
    }
}
