import GoalModel
import GoalServer
import GoalTestSlots
import GoalTestSupport
import GoalWire
import Testing

/// Issue 14 point 5, from a raw TLS socket: a malformed field of a mutate is refused alone, with `invalid`
/// naming the field, and the session goes on; each domain rule answers with its own code.
@Suite("precise rejections from a raw TLS socket", .slotted)
struct PreciseRejectionTests {
    static let match = "c4a7e2f1-9b3d-4e6a-8f5c-2d1e0b9a8c7f"

    @Test("home_goals 10.0 is rejected{invalid, [home_goals]}; the session stays usable", arguments: ["10.0", "1e1"])
    func fractionalGoals(number: String) async throws {
        try await withTestDaemon { daemon in
            let client = try await TestWebSocketClient.connect(try daemon.connector())
            let hello = ClientMessage.hello(
                .init(token: daemon.tokens.editor, clientInstance: .random(), stream: .acks)
            )
            try await client.send(text: hello.encoded())
            #expect(try await client.nextText().contains(#""type":"welcome""#))

            let ada = PlayerID()
            let bea = PlayerID()
            for (seq, name, id) in [(1, "Ada", ada), (2, "Béa", bea)] {
                let create = ClientMessage.mutate(
                    .init(seq: UInt64(seq), base: 0, action: .createPlayer(id: id, name: name))
                )
                try await client.send(text: create.encoded())
                #expect(try ServerMessage.decode(Array(try await client.nextText().utf8)).isAck(seq: UInt64(seq)))
            }

            let bad =
                #"{"type":"mutate","seq":3,"base":0,"op":"create_match","id":"\#(Self.match)","#
                + #""home_players":["\#(ada)"],"away_players":["\#(bea)"],"home_goals":\#(number),"away_goals":0}"#
            try await client.send(text: Array(bad.utf8))
            guard
                case .rejected(let seq, let rejection) = try ServerMessage.decode(
                    Array(try await client.nextText().utf8)
                )
            else {
                Issue.record("no rejection for home_goals \(number)")
                return
            }
            #expect(seq == 3)
            #expect(rejection.code == .invalid)
            #expect(rejection.fields == ["home_goals"])
            #expect(rejection.message.hasPrefix("mutate.home_goals: expected an integer; found a "))

            // The same session goes on: the corrected mutation commits.
            let good = ClientMessage.mutate(
                .init(
                    seq: 4,
                    base: 0,
                    action: .createMatch(
                        id: MatchID(Self.match)!,
                        homePlayers: [ada],
                        awayPlayers: [bea],
                        homeGoals: 10,
                        awayGoals: 0
                    )
                )
            )
            try await client.send(text: good.encoded())
            #expect(try ServerMessage.decode(Array(try await client.nextText().utf8)).isAck(seq: 4))
        }
    }

    @Test("unreadable mutations cost a token each: past the bucket they get rate_limited{seq}, not rejected")
    func invalidMutationsAreRateLimited() async throws {
        var limits = ServerLimits()
        limits.mutationBurst = 2
        limits.mutationsPerSecond = 0.001  // practically no refill: the third is over the limit however slow
        try await withTestDaemon(limits: limits) { daemon in
            let session = try await TestSession.open(daemon, token: daemon.tokens.editor, stream: .acks)
            for seq in 1...3 {
                let bad = #"{"type":"mutate","seq":\#(seq),"base":1.5,"op":"delete_match","id":"\#(Self.match)"}"#
                try await session.client.send(text: Array(bad.utf8))
            }
            var answers: [ServerMessage] = []
            for _ in 1...3 { answers.append(try await session.next()) }
            #expect(answers[0].isRejected(seq: 1))
            #expect(answers[1].isRejected(seq: 2))
            guard case .rateLimited(let seq, _) = answers[2] else {
                Issue.record("expected rate_limited, got \(answers[2])")
                return
            }
            #expect(seq == 3)
        }
    }

    @Test("a domain rule answers with its own code: unknown_player, empty_side, blank_name")
    func domainCodes() async throws {
        try await withTestDaemon { daemon in
            let session = try await TestSession.open(daemon, token: daemon.tokens.editor, stream: .acks)
            let ada = PlayerID()
            _ = try await session.commit(seq: 1, base: 0, Make.createPlayer("Ada", id: ada))
            let cases: [(MutationAction, MutationRejection.Code, [String])] = [
                (Make.createMatch(home: [ada], away: [PlayerID()]), .unknownPlayer, ["away_players"]),
                (Make.createMatch(home: [ada], away: []), .emptySide, ["away_players"]),
                (Make.createMatch(home: [ada], away: [ada]), .playerOnBothSides, ["home_players", "away_players"]),
                (Make.createPlayer("   "), .blankName, ["name"]),
                (Make.createPlayer("Ada", id: ada), .idTaken, ["id"]),
            ]
            for (index, (action, code, fields)) in cases.enumerated() {
                let seq = UInt64(index + 2)
                let answer = try await session.commit(seq: seq, base: 0, action).last
                guard case .rejected(seq, let rejection) = answer else {
                    Issue.record("expected \(code) for \(action), got \(String(describing: answer))")
                    continue
                }
                #expect(rejection.code == code)
                #expect(rejection.fields == fields)
            }
        }
    }
}
