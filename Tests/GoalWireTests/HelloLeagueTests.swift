import GoalModel
import GoalTestSlots
import GoalWire
import Testing

/// `hello.league` (PROTOCOL.md §3 "One session follows one league"): absent means the default league and leaves
/// the hello's bytes as they were before leagues; present, it is a slug, and anything else is refused at that field.
@Suite("hello names its league", .slotted)
struct HelloLeagueTests {
    private let instance = ClientInstanceID("3f2c9a1e-7b4d-4c1a-9e8f-0a1b2c3d4e5f")!

    @Test("a hello without a league is byte for byte a hello from before leagues, and reads as the default league")
    func withoutLeague() throws {
        let hello = ClientMessage.Hello(protocolVersion: 1, token: "gt_x", clientInstance: instance, since: 3)
        let text = String(decoding: ClientMessage.hello(hello).encoded(), as: UTF8.self)
        #expect(
            text
                == #"{"type":"hello","protocol":1,"token":"gt_x","client_instance":"3f2c9a1e-7b4d-4c1a-9e8f-0a1b2c3d4e5f","since":3,"stream":"all"}"#
        )
        guard case .hello(let decoded) = try ClientMessage.decode(Array(text.utf8)) else {
            Issue.record("not a hello")
            return
        }
        #expect(decoded.league == nil && decoded.leagueOrDefault == .default)
    }

    @Test("a hello with a league writes it after client_instance and reads it back")
    func withLeague() throws {
        let office = try LeagueSlug(validating: "office-berlin")
        let hello = ClientMessage.Hello(token: "gt_x", clientInstance: instance, league: office)
        let bytes = ClientMessage.hello(hello).encoded()
        #expect(
            String(decoding: bytes, as: UTF8.self).contains(
                #""client_instance":"3f2c9a1e-7b4d-4c1a-9e8f-0a1b2c3d4e5f","league":"office-berlin""#
            )
        )
        #expect(try ClientMessage.decode(bytes) == .hello(hello))
    }

    @Test(
        "a league that is not a slug is a bad_message naming hello.league",
        arguments: [
            #""""#, #""Office""#, #""-x""#, #""x-""#, #""a--b""#, #""a_b""#, "7",
            #""\#(String(repeating: "a", count: 41))""#,
        ]
    )
    func badLeague(value: String) {
        let text = #"{"type":"hello","protocol":2,"token":"t","client_instance":"i","league":\#(value)}"#
        do {
            _ = try ClientMessage.decode(Array(text.utf8))
            Issue.record("accepted \(value)")
        } catch {
            #expect(error.path == "hello.league", "\(error)")
            #expect(error.code == .badMessage)
        }
    }

    @Test("slugs: 1–40 of a–z, 0–9 and single inner hyphens")
    func slugRules() {
        for good in ["a", "default", "office-berlin", "9", "a-b-c", String(repeating: "z", count: 40)] {
            #expect(LeagueSlug.isValid(good), "\(good)")
        }
        for bad in ["", "A", "-a", "a-", "a--b", "a b", "ä", "a_b", "a.b", String(repeating: "z", count: 41)] {
            #expect(!LeagueSlug.isValid(bad), "\(bad)")
        }
    }
}
