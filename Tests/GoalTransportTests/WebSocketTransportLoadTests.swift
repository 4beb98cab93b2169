import GoalClient
import GoalTestSupport
import GoalTransport
import Testing

@Suite("WebSocketTransport: many connections")
struct WebSocketTransportLoadTests {
    @Test("200 connections on one transport all echo their own message")
    func manyConnections() async throws {
        try await Harness.withServer { server in
            let transport = try Harness.transport(port: server.port)
            let count = 200
            let echoed = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<count {
                    group.addTask {
                        let (connection, events) = Harness.connect(transport)
                        connection.send(Array(text: "connection-\(index)"))
                        let received = try await events.collect { $0.text != nil || $0.isTerminal }
                        connection.close(code: 1000)
                        _ = try await events.collect { $0.isTerminal }
                        return received == [.connected, .message(Array(text: "connection-\(index)"))]
                    }
                }
                var all: [Bool] = []
                for try await ok in group { all.append(ok) }
                return all
            }
            #expect(echoed.count == count)
            #expect(echoed.allSatisfy { $0 })
        }
    }
}
