import GoalModel
import GoalTestSlots
import GoalTestSupport
import GoalWire
import NIOCore
import NIOWebSocket
import Testing

/// Issue 14 point 4, from a real TLS socket: each frame RFC 6455 forbids a client to send, written by hand, fails
/// the connection with 1002 (a text message that is not UTF-8: 1007) and is never acted on.
@Suite("RFC 6455 strictness: bad frames fail the connection and are never acted on", .slotted)
struct WebSocketStrictnessTests {
    enum BadFrame: String, CaseIterable, Sendable {
        case unmaskedMutate
        case rsv1Mutate
        case reservedOpcodeMutate
        case fragmentedPing
        case oversizedPing
        case oneByteClose
        case nonUTF8Text
        case continuationWithoutStart
        case newMessageInsideFragmented

        var expectedClose: UInt16 { self == .nonUTF8Text ? 1007 : 1002 }
    }

    static func send(_ bad: BadFrame, on session: TestSession) async throws {
        let mutate = ClientMessage.mutate(.init(session.mutation(seq: 1, base: 0, Make.createPlayer("Sneaky"))))
            .encoded()
        let client = session.client
        switch bad {
        case .unmaskedMutate:
            try await client.send(frame: .text, payload: mutate, masked: false)
        case .rsv1Mutate:
            try await client.send(frame: .text, payload: mutate, rsv1: true)
        case .reservedOpcodeMutate:
            try await client.send(frame: WebSocketOpcode(encodedWebSocketOpcode: 3)!, payload: mutate)
        case .fragmentedPing:
            try await client.send(frame: .ping, fin: false, payload: [1, 2, 3])
        case .oversizedPing:
            try await client.send(frame: .ping, payload: Array(repeating: 7, count: 126))
        case .oneByteClose:
            try await client.send(frame: .connectionClose, payload: [3])
        case .nonUTF8Text:
            try await client.send(frame: .text, payload: [0x7B, 0xE9, 0x7D])
        case .continuationWithoutStart:
            try await client.send(frame: .continuation, payload: mutate)
        case .newMessageInsideFragmented:
            try await client.send(frame: .text, fin: false, payload: Array(mutate.prefix(10)))
            try await client.send(frame: .text, payload: mutate)
        }
    }

    @Test(
        "each bad frame: the documented close, and a mutation it carried is not applied",
        arguments: BadFrame.allCases
    )
    func badFrame(_ bad: BadFrame) async throws {
        try await withTestDaemon { daemon in
            let session = try await TestSession.open(daemon, token: daemon.tokens.editor)
            try await Self.send(bad, on: session)
            let (_, code) = try await session.readUntilClosed()
            #expect(code == bad.expectedClose, "\(bad)")
            // The engine decides in arrival order: had the bad frame's mutation been applied, this one would be
            // revision 2.
            let witness = try await TestSession.open(daemon, token: daemon.tokens.editor2, stream: .acks)
            let answers = try await witness.commit(seq: 1, base: 0, Make.createPlayer("Witness"))
            #expect(answers.last == .ack(seq: 1, revision: 1, noop: false), "\(bad)")
        }
    }
}
