import Foundation
import GoalClient
import GoalModel
import GoalReactive
import GoalTestSlots
import GoalWire
import Testing

/// The league travels in the client's hello (issue 37): a client configured for a league names it, a client
/// configured for none sends the hello it sent before leagues, byte for byte; the server's league refusals stop it.
@Suite("GoalClient leagues: the hello names the league, the default league's hello is unchanged", .slotted)
struct ClientLeagueHelloTests {
    private func firstHelloText(_ h: ClientHarness) -> String {
        String(decoding: h.transport.last.sentBytes.first ?? [], as: UTF8.self)
    }

    @Test func withoutALeagueTheHelloIsByteForByteThePreLeagueHello() {
        let h = ClientHarness()
        h.start()
        h.deliver(.connected)
        let expected =
            #"{"type":"hello","protocol":\#(WireProtocol.version),"token":"secret-token","client_instance":"client-a","#
            + #""stream":"all","presence":"all"}"#
        #expect(firstHelloText(h) == expected)
    }

    @Test func aClientOfALeagueNamesItInEveryHello() throws {
        let office = try LeagueSlug(validating: "office")
        let h = ClientHarness { $0.league = office }
        h.start()
        h.deliver(.connected)
        let expected =
            #"{"type":"hello","protocol":\#(WireProtocol.version),"token":"secret-token","client_instance":"client-a","#
            + #""league":"office","stream":"all","presence":"all"}"#
        #expect(firstHelloText(h) == expected)
        h.deliver(.welcome(h.welcome(mode: .live, head: 0, digest: .genesis)))
        h.deliver(.closed(code: 1006, reason: ""))
        h.scheduler.advance(by: 60)
        h.deliver(.connected)
        #expect(h.transport.connections.count == 2)
        #expect(h.transport.last.sent.first?.hello?.league == office, "the resumed hello names the league too")
    }

    @Test(arguments: [CloseCode.unknownLeague, .leagueForbidden])
    func aLeagueRefusalStopsForGood(code: CloseCode) throws {
        let office = try LeagueSlug(validating: "office")
        let h = ClientHarness { $0.league = office }
        h.start()
        h.deliver(.connected)
        h.deliver(.closed(code: code.rawValue, reason: "no such league"))
        #expect(h.statuses.last == .stopped(.terminal(code: code, message: "no such league")))
        h.scheduler.advance(by: 3600)
        #expect(h.transport.connections.count == 1, "a league refusal is terminal: no reconnect")
    }
}
