import GoalClient
import GoalTestSlots
import GoalTestSupport
import GoalTransport
import Testing

@Suite("WebSocketTransport: many connections", .slotted)
struct WebSocketTransportLoadTests {
    @Test("32 connections on one transport all echo their own message")
    func manyConnections() async throws {
        try await Harness.withServer { server in
            let transport = try Harness.transport(port: server.port)
            // 32 at once: enough to interleave every connection's handshake, upgrade and echo on the shared loops.
            // (200, then 64, meant 400, then 128 debug-build TLS handshakes on two threads, which a parallel test run
            // starved past the 30 s hang guard of one wait; the count proves nothing more.)
            let count = 32
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

    @Test("sends from many threads at once on one connection all arrive, each sender's in order")
    func concurrentSenders() async throws {
        try await Harness.withServer { server in
            let (connection, events) = Harness.connect(try Harness.transport(port: server.port))
            let senders = 8
            let perSender = 50
            await withTaskGroup(of: Void.self) { group in
                for sender in 0..<senders {
                    group.addTask {
                        for index in 0..<perSender { connection.send(Array(text: "\(sender):\(index)")) }
                    }
                }
            }
            var received: [Int: [Int]] = [:]
            var count = 0
            while count < senders * perSender {
                let event = try await events.next()
                if event == .connected { continue }
                guard let text = event.text else {
                    Issue.record("unexpected \(event)")
                    return
                }
                let parts = text.split(separator: ":").compactMap { Int($0) }
                received[parts[0], default: []].append(parts[1])
                count += 1
            }
            for sender in 0..<senders {
                #expect(received[sender] == Array(0..<perSender))
            }
            connection.close(code: 1000)
        }
    }
}
