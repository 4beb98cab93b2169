import Foundation
import GoalModel
import GoalTestSlots
import GoalWire
import Testing

@Suite("Message round trips", .slotted)
struct MessageRoundTripTests {
    @Test("every client message decodes to itself", arguments: Fixtures.clientMessages)
    func clientRoundTrip(message: ClientMessage) throws {
        let bytes = message.encoded()
        #expect(try ClientMessage.decode(bytes) == message)
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix(#"{"type":"\#(message.type)","#))
    }

    @Test("every server message decodes to itself", arguments: Fixtures.serverMessages)
    func serverRoundTrip(message: ServerMessage) throws {
        let bytes = message.encoded()
        #expect(try ServerMessage.decode(bytes) == message)
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix(#"{"type":"\#(message.type)""#))
    }

    @Test("the fixtures cover every message type of both directions")
    func coverage() {
        #expect(Set(Fixtures.clientMessages.map(\.type)) == Set(ClientMessage.types))
        #expect(Set(Fixtures.serverMessages.map(\.type)) == Set(ServerMessage.types))
        let ops = Set(Fixtures.actions.map(\.operation))
        #expect(ops == Set(MutationAction.operations))
    }

    @Test("a mutate carries the mutation; its id is (hello's instance, seq)")
    func mutateMutation() throws {
        let mutation = Mutation(id: MutationID(instance: Fixtures.bob, seq: 9), base: 12, action: Fixtures.actions[4])
        let decoded = try ClientMessage.decode(ClientMessage.mutate(ClientMessage.Mutate(mutation)).encoded())
        guard case .mutate(let mutate) = decoded else {
            Issue.record("not a mutate")
            return
        }
        #expect(mutate.mutation(instance: Fixtures.bob) == mutation)
    }

    @Test("update_match carries only the written fields")
    func updateMatchWrittenFields() {
        let text = String(
            decoding: ClientMessage.mutate(ClientMessage.Mutate(seq: 1, base: 2, action: Fixtures.actions[4]))
                .encoded(),
            as: UTF8.self
        )
        #expect(text.contains(#""away_players":"#) && text.contains(#""home_goals":5"#))
        #expect(!text.contains("home_players") && !text.contains("away_goals"))
    }

    @Test("hello without stream means all; absent optionals stay absent")
    func helloDefaults() throws {
        let text = #"{"type":"hello","protocol":1,"token":"x","client_instance":"me"}"#
        let message = try ClientMessage.decode(Array(text.utf8))
        #expect(
            message
                == .hello(ClientMessage.Hello(protocolVersion: 1, token: "x", clientInstance: ClientInstanceID("me")!))
        )
    }

    @Test("outcomes map to ack, noop ack and rejected")
    func outcomes() {
        let rejection = MutationRejection(code: .idReused, message: "reused")
        #expect(ServerMessage.outcome(seq: 3, .committed(9)) == .ack(seq: 3, revision: 9, noop: false))
        #expect(ServerMessage.outcome(seq: 3, .noop(9)) == .ack(seq: 3, revision: 9, noop: true))
        #expect(ServerMessage.outcome(seq: 3, .rejected(rejection)) == .rejected(seq: 3, rejection))
    }

    @Test("unknown keys are ignored (forward compatibility)")
    func unknownKeys() throws {
        let text = #"{"type":"caught_up","head":7,"future":{"x":[1,2]}}"#
        #expect(try ServerMessage.decode(Array(text.utf8)) == .caughtUp(head: 7))
    }
}
