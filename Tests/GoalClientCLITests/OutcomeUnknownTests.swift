import Foundation
import GoalClient
import GoalModel
import GoalTestSlots
import GoalWire
import Synchronization
import Testing

@testable import goal_client

/// A server that welcomes every hello live and then never answers: every mutation sent to it has an unknown
/// outcome. Counts the mutate messages it swallows (re-sends included).
final class SilentServerTransport: Transport {
    let mutates = Mutex<[[UInt8]]>([])

    func connect(events: @escaping @Sendable (TransportEvent) -> Void) -> any TransportConnection {
        let connection = SilentConnection(server: self, events: events)
        DispatchQueue.global().async { events(.connected) }
        return connection
    }
}

final class SilentConnection: TransportConnection {
    let server: SilentServerTransport
    let events: @Sendable (TransportEvent) -> Void

    init(server: SilentServerTransport, events: @escaping @Sendable (TransportEvent) -> Void) {
        self.server = server
        self.events = events
    }

    func send(_ message: [UInt8]) {
        if String(decoding: message, as: UTF8.self).contains("\"hello\"") {
            let welcome = ServerMessage.welcome(
                .init(
                    epoch: LeagueEpoch(rawValue: "e1"),
                    head: 0,
                    headDigest: .genesis,
                    mode: .live,
                    role: .editor,
                    serverTime: .init(millisecondsSince1970: 0)
                )
            )
            events(.message(welcome.encoded()))
        } else {
            server.mutates.withLock { $0.append(message) }
        }
    }

    func ping() {}
    func close(code: UInt16) { events(.closed(code: code, reason: "")) }
}

@Suite("exit code 5: outcome unknown", .slotted)
struct OutcomeUnknownTests {
    @Test("a mutation sent and never answered within the retry window fails with code 5 and prints its id")
    func unanswered() async throws {
        let transport = SilentServerTransport()
        let session = try LeagueSession(transport: transport, token: "t", servers: ["silent"], retryWindow: 0.5)
        try await session.connect(timeout: 10)
        do {
            _ = try await session.perform(.createPlayer(id: PlayerID(), name: "Alice"), base: 0)
            Issue.record("the mutation was answered")
        } catch {
            #expect(error.code == .outcomeUnknown)
            #expect(error.code.rawValue == 5)
            let id = "\(session.client.clientInstance)#1"
            #expect(error.message.contains("the outcome of mutation \(id) is unknown"))
            #expect(error.message.contains("goal-client tail or list"))
        }
        #expect(transport.mutates.withLock { $0.count } >= 1)
    }

    @Test("terminal-safe text: control, C1 and bidi characters are shown, never interpreted")
    func escaping() {
        #expect(TerminalText.escape("Eve\u{1B}[2J") == "Eve\\u{1B}[2J")
        #expect(TerminalText.escape("a\u{9B}b\u{202E}c") == "a\\u{9B}b\\u{202E}c")
        #expect(TerminalText.escape("Zoë 🙂") == "Zoë 🙂")
        #expect(TerminalText.escapeJSON("{\"n\":\"x\u{202E}\"}") == "{\"n\":\"x\\u202e\"}")
        #expect(JSONDocument.object([("n", .string("a\u{1B}"))]).text == "{\"n\":\"a\\u001b\"}")
    }
}
