import GoalModel
import GoalTestSlots
import GoalWire
import Testing

@Suite("Decoding bad input never traps", .slotted)
struct DecodingRobustnessTests {
    static var validExamples: [[UInt8]] {
        Fixtures.clientMessages.map { $0.encoded() } + Fixtures.serverMessages.map { $0.encoded() }
    }

    /// Decodes in both directions; every failure must be a `WireDecodingError` (the typed throw guarantees
    /// it) with a non-empty description.
    static func decodeBoth(_ bytes: [UInt8]) -> (client: WireDecodingError?, server: WireDecodingError?) {
        var clientError: WireDecodingError?
        var serverError: WireDecodingError?
        do { _ = try ClientMessage.decode(bytes, limit: .max) } catch { clientError = error }
        do { _ = try ServerMessage.decode(bytes, limit: .max) } catch { serverError = error }
        return (clientError, serverError)
    }

    @Test("5,000 seeded random byte strings yield typed errors")
    func randomBytes() {
        var generator = SeededGenerator(state: 0x600D_5EED)
        for _ in 0..<5_000 {
            let count = Int.random(in: 0..<200, using: &generator)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let (client, server) = Self.decodeBoth(bytes)
            #expect(client != nil && server != nil)
            _ = ChangesetFrame.peek(bytes)
        }
    }

    @Test("5,000 seeded random JSON-ish strings yield typed errors or valid messages")
    func randomJSONish() {
        var generator = SeededGenerator(state: 42)
        let alphabet = Array(#"{}[]":,0123456789-.eE truefalsnl\"typehellomutateseqbaseop"#.utf8)
        for _ in 0..<5_000 {
            let count = Int.random(in: 0..<120, using: &generator)
            let bytes = (0..<count).map { _ in alphabet.randomElement(using: &generator)! }
            let (client, server) = Self.decodeBoth(bytes)
            if let client { #expect(!client.description.isEmpty) }
            if let server { #expect(!server.description.isEmpty) }
        }
    }

    @Test("every truncation of every valid example is a typed error, never a crash")
    func truncations() {
        for example in Self.validExamples {
            for length in 0..<example.count {
                let (client, server) = Self.decodeBoth(Array(example.prefix(length)))
                #expect(
                    client != nil && server != nil,
                    "prefix \(length) of \(String(decoding: example, as: UTF8.self))"
                )
                if let server { #expect(server.code == .badMessage) }
                _ = ChangesetFrame.peek(Array(example.prefix(length)))
            }
        }
    }

    @Test("random single-byte corruptions of valid examples never trap")
    func corruptions() {
        var generator = SeededGenerator(state: 7)
        for example in Self.validExamples {
            for _ in 0..<200 {
                var bytes = example
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                _ = Self.decodeBoth(bytes)
                _ = ChangesetFrame.peek(bytes)
            }
        }
    }

    @Test("invalid UTF-8 is reported as such, and closes with 1007 (RFC 6455 §8.1), not 4400")
    func invalidUTF8() {
        for bytes: [UInt8] in [
            [0xFF], [0xC0, 0x80], Array(#"{"type":"hello","token":""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}"#.utf8),
            Array(#"{"type":"mutate","name":"#.utf8) + [0xE2, 0x82],
        ] {
            #expect(throws: WireDecodingError.invalidUTF8) { try ClientMessage.decode(bytes) }
        }
        #expect(WireDecodingError.invalidUTF8.code == .badMessage)
        #expect(WireDecodingError.invalidUTF8.closeCode == .invalidFramePayloadData)
        #expect(WireDecodingError.invalidJSON.closeCode == .protocolViolation)
    }

    @Test("deep nesting and huge numbers are typed errors")
    func pathological() {
        let deep = Array(repeating: UInt8(ascii: "["), count: 60_000)
        #expect(throws: WireDecodingError.invalidJSON) { try ClientMessage.decode(deep) }
        let deepObject = Array(
            (String(repeating: #"{"a":"#, count: 5_000) + "1" + String(repeating: "}", count: 5_000)).utf8
        )
        #expect(throws: WireDecodingError.self) { try ServerMessage.decode(deepObject) }
    }

    @Test(
        "handcrafted bad messages name the field and what was expected",
        arguments: [
            (
                #"{"type":"mutate","seq":1,"base":0,"op":"create_match","id":"3c0b0000-0000-4000-8000-000000000001","home_players":[],"away_players":[],"home_goals":"3","away_goals":0}"#,
                "mutate.home_goals: expected an integer, found a string"
            ),
            (
                #"{"type":"mutate","seq":1,"base":0,"op":"adjust_goals","id":"3c0b0000-0000-4000-8000-000000000001","side":"home","delta":1.5}"#,
                "mutate.delta: expected an integer; found a fraction"
            ),
            (
                #"{"type":"mutate","seq":-1,"base":0,"op":"delete_match","id":"3c0b0000-0000-4000-8000-000000000001"}"#,
                "mutate.seq: expected a non-negative integer; found a negative number"
            ),
            (
                #"{"type":"mutate","seq":1,"op":"delete_match","id":"3c0b0000-0000-4000-8000-000000000001"}"#,
                "mutate.base: required field is missing"
            ),
            (
                #"{"type":"mutate","seq":1,"base":0,"op":"delete_match","id":"not-a-uuid"}"#,
                #"mutate.id: expected a UUID string; found "not-a-uuid""#
            ),
            (
                #"{"type":"mutate","seq":1,"base":0,"op":"adjust_goals","id":"3c0b0000-0000-4000-8000-000000000001","side":"left","delta":1}"#,
                #"mutate.side: expected one of "home", "away"; found "left""#
            ),
            (
                #"{"type":"mutate","seq":1,"base":0,"op":"explode"}"#,
                #"mutate.op: expected one of "create_player", "rename_player", "delete_player", "create_match", "update_match", "adjust_goals", "delete_match"; found "explode""#
            ),
            (
                #"{"type":"mutate","seq":1,"base":0,"op":"create_match","id":"3c0b0000-0000-4000-8000-000000000001","home_players":["9a7e0000-0000-4000-8000-000000000001",7],"away_players":[],"home_goals":0,"away_goals":0}"#,
                "mutate.home_players[1]: expected a string, found a number"
            ),
            (
                #"{"type":"mutate","seq":1,"base":0,"op":"update_match","id":"3c0b0000-0000-4000-8000-000000000001","home_goals":null}"#,
                "mutate.home_goals: expected an integer, found null"
            ),
            (
                #"{"type":"hello","protocol":1,"token":"t","client_instance":""}"#,
                "hello.client_instance: expected a non-empty client instance id of at most 64 bytes; found 0 bytes"
            ),
            (
                #"{"type":"hello","protocol":"1","token":"t","client_instance":"x"}"#,
                "hello.protocol: expected an integer, found a string"
            ),
            (
                #"{"type":"hello","protocol":1,"token":"t","client_instance":"x","stream":"some"}"#,
                #"hello.stream: expected one of "all", "acks"; found "some""#
            ),
            (
                #"{"type":"hello","protocol":1,"token":"t","client_instance":"x","digest":"abc"}"#,
                #"hello.digest: expected 64 hex digits; found "abc""#
            ),
            (
                #"{"type":"subscribe"}"#,
                #"message.type: unknown message type "subscribe"; expected one of hello, mutate, presence, history"#
            ),
            (#"{"type":7}"#, "message.type: expected a string, found a number"),
            (#"{"token":"x"}"#, "message.type: required field is missing"),
            (#"[1,2]"#, "message: expected an object, found an array"),
            (#"{"type":"hello""#, "message: not valid JSON (malformed, truncated, trailing data or nested too deeply)"),
        ]
    )
    func handcrafted(input: String, expected: String) {
        do {
            let message = try ClientMessage.decode(Array(input.utf8))
            Issue.record("decoded \(message)")
        } catch {
            #expect(error.description == expected)
            #expect(error.closeCode.isTerminal)
        }
    }

    @Test("error codes: unknown type, too large, bad message")
    func codes() {
        #expect(throws: WireDecodingError.unknownType("nope", known: ClientMessage.types)) {
            try ClientMessage.decode(Array(#"{"type":"nope"}"#.utf8))
        }
        let hello = ClientMessage.hello(
            ClientMessage.Hello(token: String(repeating: "x", count: 5000), clientInstance: Fixtures.alice)
        )
        do {
            _ = try ClientMessage.decode(hello.encoded(), limit: WireProtocol.maxBytesBeforeHello)
            Issue.record("accepted a hello over 4 KiB")
        } catch {
            #expect(error.code == .tooLarge)
            #expect(error.closeCode == .messageTooLarge)
        }
        do {
            _ = try ClientMessage.decode(Array("{}".utf8))
        } catch {
            #expect(error.code == .badMessage)
            #expect(error.closeCode == .protocolViolation)
        }
    }

    @Test("server-message decoding names nested paths")
    func serverPaths() {
        let text =
            #"{"type":"snapshot_chunk","players":[{"id":"9a7e0000-0000-4000-8000-000000000001","name":"a","name_key":"a","created":{"rev":1,"by":"x"},"name_stamp":{"rev":"2","by":"x"}}]}"#
        #expect(
            throws: WireDecodingError.typeMismatch(
                "snapshot_chunk.players[0].name_stamp.rev",
                expected: "a non-negative integer",
                found: "a string"
            )
        ) {
            try ServerMessage.decode(Array(text.utf8))
        }
        let change =
            #"{"type":"changeset","revision":1,"digest":"\#(String(repeating: "0", count: 64))","time":0,"author":"a","changes":[{"kind":"goal"}]}"#
        do {
            _ = try ServerMessage.decode(Array(change.utf8))
            Issue.record("accepted")
        } catch {
            #expect(error.path == "changeset.changes[0].kind")
        }
    }
}
