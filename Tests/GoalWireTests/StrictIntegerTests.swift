import Foundation
import GoalModel
import GoalTestSlots
import GoalWire
import Testing

/// Issue 14 point 5 (integers are integers) and point 10 (seq ≥ 2^63 is refused, not clamped), at the wire.
@Suite("Integer fields accept integers only; seq, base and since stay below 2^63", .slotted)
struct StrictIntegerTests {
    static let match = "3c0b0000-0000-4000-8000-000000000001"
    static let player = "9a7e0000-0000-4000-8000-000000000001"

    /// Every spelling of ten that is not an integer literal.
    static let nonIntegers = ["10.0", "1e1", "1E1", "-0.0", "10.00", "1.0e1", "1e+1", "100e-1"]

    static func createMatch(homeGoals: String) -> [UInt8] {
        Array(
            (#"{"type":"mutate","seq":7,"base":0,"op":"create_match","id":"\#(match)","home_players":["\#(player)"],"#
                + #""away_players":["9a7e0000-0000-4000-8000-000000000002"],"home_goals":\#(homeGoals),"away_goals":0}"#)
                .utf8
        )
    }

    @Test(
        "a fraction or an exponent in an integer field is refused as invalid, naming the field",
        arguments: nonIntegers
    )
    func nonIntegerGoals(number: String) throws {
        do {
            let message = try ClientMessage.decode(Self.createMatch(homeGoals: number))
            Issue.record("accepted \(number) as an integer: \(message)")
        } catch {
            #expect(error.path == "mutate.home_goals")
            #expect(error.mutateSeq == 7)
            guard case .rejected(let seq, let rejection) = error.rejectedMutation else {
                Issue.record("no rejection for \(number): \(error)")
                return
            }
            #expect(seq == 7)
            #expect(rejection.code == .invalid)
            #expect(rejection.fields == ["home_goals"])
            #expect(rejection.message.hasPrefix("mutate.home_goals: expected an integer; found a "))
        }
    }

    @Test("the rejection's message says what was found")
    func messages() throws {
        do {
            _ = try ClientMessage.decode(Self.createMatch(homeGoals: "10.0"))
        } catch {
            #expect(error.description == "mutate.home_goals: expected an integer; found a fraction")
        }
        let exponent = WireDecodingError.invalidValue(
            "mutate.home_goals",
            "expected an integer; found a number with an exponent"
        )
        do {
            _ = try ClientMessage.decode(Self.createMatch(homeGoals: "1e1"))
        } catch {
            #expect(error.description == exponent.description)
            #expect(
                error.rejectedMutation?.encoded()
                    == Array(
                        (#"{"type":"rejected","seq":7,"code":"invalid","fields":["home_goals"],"#
                            + #""message":"mutate.home_goals: expected an integer; found a number with an exponent"}"#)
                            .utf8
                    )
            )
        }
    }

    @Test("plain integers, -0 included, are accepted")
    func plainIntegers() throws {
        for (text, value) in [("10", 10), ("0", 0), ("-0", 0), ("999", 999)] {
            guard case .mutate(let mutate) = try ClientMessage.decode(Self.createMatch(homeGoals: text)),
                case .createMatch(_, _, _, let goals, _) = mutate.action
            else {
                Issue.record("not a create_match")
                continue
            }
            #expect(goals == value)
        }
    }

    @Test(
        "every integer field of every mutation refuses a fraction",
        arguments: [
            (
                #"{"type":"mutate","seq":3,"base":0,"op":"adjust_goals","id":"\#(match)","side":"home","delta":1.0}"#,
                "delta"
            ),
            (
                #"{"type":"mutate","seq":3,"base":0,"op":"update_match","id":"\#(match)","away_goals":2.5}"#,
                "away_goals"
            ),
            (
                #"{"type":"mutate","seq":3,"base":0,"op":"update_match","id":"\#(match)","home_goals":2e0}"#,
                "home_goals"
            ),
            (#"{"type":"mutate","seq":3,"base":1.0,"op":"delete_match","id":"\#(match)"}"#, "base"),
            (#"{"type":"mutate","seq":3,"base":0,"op":"delete_match","id":7}"#, "id"),
            (#"{"type":"mutate","seq":3,"base":0,"op":"explode"}"#, "op"),
            (
                #"{"type":"mutate","seq":3,"base":0,"op":"create_match","id":"\#(match)","home_players":["\#(player)",7],"away_players":[],"home_goals":0,"away_goals":0}"#,
                "home_players"
            ),
        ]
    )
    func everyField(input: String, field: String) {
        do {
            _ = try ClientMessage.decode(Array(input.utf8))
            Issue.record("accepted \(input)")
        } catch {
            guard case .rejected(3, let rejection) = error.rejectedMutation else {
                Issue.record("not a rejection of seq 3: \(error)")
                return
            }
            #expect(rejection.code == .invalid)
            #expect(rejection.fields == [field])
        }
    }

    @Test(
        "seq, base and since at or beyond 2^63 are refused, never clamped; the error names the field",
        arguments: [
            (
                #"{"type":"mutate","seq":9223372036854775808,"base":0,"op":"delete_match","id":"\#(match)"}"#,
                "mutate.seq", false
            ),
            (
                #"{"type":"mutate","seq":18446744073709551615,"base":0,"op":"delete_match","id":"\#(match)"}"#,
                "mutate.seq", false
            ),
            (
                #"{"type":"mutate","seq":18446744073709551616,"base":0,"op":"delete_match","id":"\#(match)"}"#,
                "mutate.seq", false
            ),
            (#"{"type":"mutate","seq":1e19,"base":0,"op":"delete_match","id":"\#(match)"}"#, "mutate.seq", false),
            (
                #"{"type":"mutate","seq":4,"base":9223372036854775808,"op":"delete_match","id":"\#(match)"}"#,
                "mutate.base", true
            ),
            (
                #"{"type":"hello","protocol":1,"token":"t","client_instance":"x","since":9223372036854775808}"#,
                "hello.since", false
            ),
        ]
    )
    func beyondSignedRange(input: String, path: String, rejectable: Bool) {
        do {
            let message = try ClientMessage.decode(Array(input.utf8))
            Issue.record("accepted \(message)")
        } catch {
            #expect(error.path == path)
            #expect(error.code == .badMessage)
            #expect((error.rejectedMutation != nil) == rejectable)
        }
    }

    @Test("-0 reads as 0, also in an unsigned field; -1 there is a negative number")
    func negativeZero() throws {
        let input = #"{"type":"mutate","seq":5,"base":-0,"op":"delete_match","id":"\#(Self.match)"}"#
        guard case .mutate(let mutate) = try ClientMessage.decode(Array(input.utf8)) else {
            Issue.record("not a mutate")
            return
        }
        #expect(mutate.base == 0)
        do {
            _ = try ClientMessage.decode(Array(input.replacingOccurrences(of: "-0", with: "-1").utf8))
            Issue.record("accepted a negative base")
        } catch {
            #expect(error.description == "mutate.base: expected a non-negative integer; found a negative number")
        }
    }

    @Test("2^63 − 1 is the largest seq accepted")
    func largestSeq() throws {
        let input = #"{"type":"mutate","seq":9223372036854775807,"base":0,"op":"delete_match","id":"\#(Self.match)"}"#
        guard case .mutate(let mutate) = try ClientMessage.decode(Array(input.utf8)) else {
            Issue.record("not a mutate")
            return
        }
        #expect(mutate.seq == UInt64(Int64.max))
    }

    @Test("a malformed hello or an unreadable seq is an error for the session, not a rejection")
    func envelopeErrors() {
        for input in [
            #"{"type":"mutate","seq":1.0,"base":0,"op":"delete_match","id":"\#(Self.match)"}"#,
            #"{"type":"mutate","base":0,"op":"delete_match","id":"\#(Self.match)"}"#,
            #"{"type":"hello","protocol":1.0,"token":"t","client_instance":"x"}"#,
        ] {
            do {
                _ = try ClientMessage.decode(Array(input.utf8))
                Issue.record("accepted \(input)")
            } catch {
                #expect(error.rejectedMutation == nil, "\(input)")
                #expect(error.code == .badMessage)
            }
        }
    }

    @Test("server messages refuse non-integers too")
    func serverSide() {
        #expect(
            throws: WireDecodingError.invalidValue(
                "caught_up.head",
                "expected a non-negative integer; found a fraction"
            )
        ) {
            try ServerMessage.decode(Array(#"{"type":"caught_up","head":4.0}"#.utf8))
        }
        #expect(throws: WireDecodingError.self) {
            try ServerMessage.decode(Array(#"{"type":"ack","seq":1,"revision":1e0}"#.utf8))
        }
    }
}
