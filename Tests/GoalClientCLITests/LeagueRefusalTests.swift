import Foundation
import GoalClient
import GoalModel
import GoalTestSlots
import GoalTestSupport
import GoalWire
import Synchronization
import Testing

@testable import goal_client

/// What goal-client says when goald refuses the league a session named (issue 37): 4404 `unknown_league` is a usage
/// error (exit 2), 4405 `league_forbidden` is unauthorized (exit 4); both name the league and send the user to
/// `goal-client leagues`. The commands (through `LeagueSession`) and `tail` say the same.
@Suite("goal-client's words for unknown_league (4404) and league_forbidden (4405)", .slotted)
struct LeagueRefusalTests {
    @Test func anUnknownLeagueIsAUsageErrorNamingItAndTheLeaguesCommand() throws {
        let failure = LeagueSession.failure(
            for: .terminal(code: .unknownLeague, message: "no league office"),
            server: "wss://a:7443",
            league: try LeagueSlug(validating: "office")
        )
        #expect(failure.code == .usage)
        #expect(failure.message.hasPrefix("wss://a:7443 has no league \"office\" (no league office); "))
        #expect(failure.message.contains("run goal-client leagues"))
    }

    @Test func aForbiddenLeagueIsUnauthorizedNamingItAndTheLeaguesCommand() throws {
        let failure = LeagueSession.failure(
            for: .terminal(code: .leagueForbidden, message: ""),
            server: "wss://a:7443",
            league: try LeagueSlug(validating: "office")
        )
        #expect(failure.code == .unauthorized)
        #expect(failure.message.hasPrefix("your token may not see league \"office\" on wss://a:7443; "))
        #expect(failure.message.contains("run goal-client leagues"))
    }

    @Test func otherTerminalCodesKeepTheirWords() {
        let failure = LeagueSession.failure(for: .terminal(code: .unauthorized, message: "bye"), server: "s")
        #expect(failure == .unauthorized("s refused the token: bye"))
        #expect(LeagueRefusal.failure(code: .tokenRevoked, message: "", league: nil, server: "s") == nil)
    }

    @Test(arguments: [(CloseCode.unknownLeague, CLIFailure.Code.usage), (.leagueForbidden, .unauthorized)])
    func tailNamesTheLeagueInItsHelloAndStopsOnARefusal(code: CloseCode, exit: CLIFailure.Code) async throws {
        let server = RefusingTransport(code: code)
        let follower = TailFollower(
            transport: server,
            token: "gt_x",
            servers: ["wss://a:7443"],
            options: TailOptions(since: nil, allowSnapshot: false, json: true),
            league: try LeagueSlug(validating: "office"),
            output: { _ in }
        )
        let result = await follower.run(seed: ReplicaState())
        #expect(server.leagues.withLock { $0 } == ["office"], "one hello, naming the league; no retry")
        guard case .failure(let failure) = result else {
            Issue.record("tail went on after \(code)")
            return
        }
        #expect(failure.code == exit)
        #expect(failure.message.contains("\"office\""))
        #expect(failure.message.contains("goal-client leagues"))
    }
}

/// A server that refuses every hello with one close code, recording the league each hello named.
private final class RefusingTransport: Transport {
    let code: CloseCode
    let leagues = Mutex<[String]>([])

    init(code: CloseCode) { self.code = code }

    func connect(events: @escaping @Sendable (TransportEvent) -> Void) -> any TransportConnection {
        DispatchQueue.global().async { events(.connected) }
        return RefusingConnection(server: self, events: events)
    }
}

private final class RefusingConnection: TransportConnection {
    let server: RefusingTransport
    let events: @Sendable (TransportEvent) -> Void

    init(server: RefusingTransport, events: @escaping @Sendable (TransportEvent) -> Void) {
        self.server = server
        self.events = events
    }

    func send(_ message: [UInt8]) {
        // Only hellos matter here; a message that does not decode is not one.
        guard case .hello(let hello) = try? ClientMessage.decode(message) else { return }
        server.leagues.withLock { $0.append(hello.league?.rawValue ?? "(none)") }
        let (events, code) = (self.events, server.code)
        DispatchQueue.global().async { events(.closed(code: code.rawValue, reason: "refused")) }
    }

    func ping() {}

    func close(code: UInt16) {}
}
