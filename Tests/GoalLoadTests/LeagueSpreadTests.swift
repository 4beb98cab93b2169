import ArgumentParser
import GoalClient
import GoalModel
import GoalTestSlots
import GoalTransport
import GoalWire
import Testing

@testable import goal_load

/// `--leagues N` and `--league-prefix` (issue 37 point 7): which leagues, how connections are spread over them,
/// the many-leagues preset, and what provisioning creates and says when it cannot.
@Suite("goal-load over several leagues: options and spreading", .slotted)
struct LeagueSpreadTests {
    private func configuration(_ arguments: [String]) throws -> LoadConfiguration {
        try LoadOptions.parse(["--insecure"] + arguments).configuration(environment: ["GOAL_TOKEN": "t"])
    }

    @Test func oneLeagueWithoutAPrefixIsTheDefaultLeagueNamedNowhere() throws {
        for arguments in [[], ["--leagues", "1"]] {
            let leagues = try configuration(arguments).leagues
            #expect(leagues == .defaultLeague)
            #expect(!leagues.namesLeagues)
            #expect(leagues.count == 1)
            #expect(leagues.slug(0) == nil, "no league in any hello")
            #expect(leagues.name(0) == "default")
            #expect((0..<4).map(leagues.league(ofSubscriber:)) == [0, 0, 0, 0])
        }
    }

    @Test func severalLeaguesAreNamedAfterThePrefixAndSpreadRoundRobin() throws {
        let leagues = try configuration(["--leagues", "3", "--subscribers", "7", "--writers", "4"]).leagues
        #expect(leagues.named.map(\.rawValue) == ["load-1", "load-2", "load-3"])
        #expect(leagues.namesLeagues)
        #expect((0..<7).map(leagues.league(ofSubscriber:)) == [0, 1, 2, 0, 1, 2, 0])
        #expect((0..<4).map(leagues.league(ofWriter:)) == [0, 1, 2, 0])
        #expect(leagues.slug(1)?.rawValue == "load-2")
        #expect(leagues.members(ofLeague: 0, total: 7) == [0, 3, 6])
        #expect(leagues.members(ofLeague: 2, total: 7) == [2, 5])
        #expect(leagues.members(ofLeague: 2, total: 2) == [], "more leagues than connections: some get none")
        let prefixed = try configuration(["--leagues", "2", "--league-prefix", "bench"]).leagues
        #expect(prefixed.named.map(\.rawValue) == ["bench-1", "bench-2"])
        let one = try configuration(["--league-prefix", "solo"]).leagues
        #expect(one.named.map(\.rawValue) == ["solo-1"], "a prefix names even one league")
    }

    @Test func leagueCountsAndPrefixesThatMakeNoSlugAreUsageErrors() throws {
        #expect(throws: (any Error).self) { try LoadOptions.parse(["--insecure", "--leagues", "0"]) }
        for prefix in ["Load", "a b", "-x", String(repeating: "p", count: 39)] {
            #expect(throws: LoadError.self) { try configuration(["--leagues", "2", "--league-prefix=\(prefix)"]) }
        }
        #expect(throws: LoadError.self) { try LeagueSpread(count: 0, prefix: nil) }
    }

    @Test func theManyLeaguesPresetIsAThousandSmallLeagues() throws {
        for flag in ["--preset", "--scenario"] {
            let configuration = try configuration([flag, "many-leagues"])
            #expect(configuration.scenario == .manyLeagues)
            #expect(configuration.leagues.count == 1_000)
            #expect(configuration.leagues.named.last?.rawValue == "load-1000")
            #expect(configuration.shape.subscribers == 10 * configuration.leagues.count)
            #expect(configuration.shape.writers == configuration.leagues.count, "one writer per league")
        }
        let fewer = try configuration(["--preset", "many-leagues", "--leagues", "50", "--subscribers", "500"])
        #expect(fewer.leagues.count == 50, "flags override the preset")
        #expect(fewer.shape.subscribers == 500)
    }

    @Test func provisioningCreatesOnlyTheLeaguesNotListedInOrder() throws {
        let wanted = try (1...4).map { try LeagueSlug(validating: "load-\($0)") }
        let listed = [
            LeagueListing(id: .default, name: "Default", created: "x", role: .admin),
            LeagueListing(id: wanted[2], name: "three", created: "x", role: .editor),
        ]
        #expect(LeagueProvisioning.missing(wanted, listed: listed) == [wanted[0], wanted[1], wanted[3]])
        #expect(LeagueProvisioning.missing(wanted, listed: []) == wanted)
    }

    @Test func aRefusedCreateSaysThatItTakesAnOperatorToken() throws {
        let slug = try LeagueSlug(validating: "load-2")
        let forbidden = LeagueDirectoryError.status(403, RESTErrorBody(message: "not an operator", code: nil))
        let refusal = LeagueProvisioning.refusal(forbidden, creating: slug)
        #expect(refusal.kind == .connect)
        #expect(refusal.message.contains("cannot create league load-2"))
        #expect(refusal.message.contains("operator token"))
        let down = LeagueProvisioning.refusal(.transport(TransportFailure(.cannotConnect, "refused")), creating: nil)
        #expect(down.message.hasPrefix("cannot list the leagues"))
        #expect(!down.message.contains("operator"))
    }
}
