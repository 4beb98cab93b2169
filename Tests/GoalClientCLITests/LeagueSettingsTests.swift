import ArgumentParser
import Foundation
import GoalClient
import GoalModel
import GoalTestSlots
import GoalTestSupport
import Testing

@testable import goal_client

/// goal-client's league setting (issue 37) as pure functions and files: `--league` on every command, `GOAL_LEAGUE`
/// and the config file in that order, the config file's round trip, and one state file per login and league (the
/// default league's keeps its name from before leagues, so an upgrade keeps the replica and the outbox).
@Suite("goal-client --league: parsing, layers, the saved login, one state file per league", .slotted)
struct LeagueSettingsTests {
    private func scratch() throws -> String { try TestCertificates.makeTemporaryDirectory(prefix: "goal-league") }

    private func environment(_ directory: String, _ extra: [String: String] = [:]) -> [String: String] {
        [
            "GOAL_SERVER": "wss://a:7443", "GOAL_TOKEN": "gt_test",
            "GOAL_FINGERPRINT": String(repeating: "ab", count: 32),
            "XDG_CONFIG_HOME": directory + "/config", "XDG_STATE_HOME": directory + "/state",
        ].merging(extra) { $1 }
    }

    @Test func everyCommandTakesLeague() throws {
        let tail = try Tail.parse(["--league", "office"])
        #expect(tail.connection.league == "office")
        let list = try Players.List.parse(["--league", "home-2"])
        #expect(list.connection.league == "home-2")
        let live = try Live.parse([])
        #expect(live.connection.league == nil)
    }

    @Test func aLeagueThatIsNoIdIsRefusedByTheParserNamingTheFlag() {
        #expect(throws: (any Error).self) { try Tail.parse(["--league", "Office!"]) }
        let problem = ClientSettings.leagueProblem("Office!", source: "--league")
        #expect(problem?.hasPrefix("--league \"Office!\" is not a league id") == true)
        #expect(problem?.hasSuffix("goal-client leagues lists them") == true)
        #expect(ClientSettings.leagueProblem("office-2", source: "--league") == nil)
    }

    @Test func theFlagWinsOverGOALLEAGUEWhichWinsOverTheFile() throws {
        let directory = try scratch()
        var file = ConfigFile()
        file.league = "from-file"
        try file.save(to: ConfigFile.path(environment: environment(directory)))
        var options = try Tail.parse([]).connection
        #expect(
            try ClientSettings.resolve(options, environment: environment(directory)).league?.rawValue == "from-file"
        )
        let env = environment(directory, ["GOAL_LEAGUE": "from-env"])
        #expect(try ClientSettings.resolve(options, environment: env).league?.rawValue == "from-env")
        options.league = "from-flag"
        #expect(try ClientSettings.resolve(options, environment: env).league?.rawValue == "from-flag")
        options.league = "default"
        #expect(try ClientSettings.resolve(options, environment: env).league == nil, "default names no league")
    }

    @Test func aBadLeagueInGOALLEAGUEOrTheFileIsAUsageErrorNamingWhere() throws {
        let directory = try scratch()
        let options = try Tail.parse([]).connection
        #expect(throws: CLIFailure.self) {
            try ClientSettings.resolve(options, environment: environment(directory, ["GOAL_LEAGUE": "-x"]))
        }
        do {
            _ = try ClientSettings.resolve(options, environment: environment(directory, ["GOAL_LEAGUE": "-x"]))
        } catch {
            #expect(error.code == .usage)
            #expect(error.message.hasPrefix("GOAL_LEAGUE \"-x\" is not a league id"))
        }
    }

    @Test func theConfigFileKeepsTheLeagueAndAFileWithoutOneHasNone() throws {
        let directory = try scratch()
        let path = directory + "/config.json"
        let saved = ConfigFile(servers: ["wss://a:7443"], token: "gt_x", league: "office")
        try saved.save(to: path)
        #expect(try ConfigFile.load(from: path) == saved)
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains(#""league":"office""#))
        let plain = ConfigFile(servers: ["wss://a:7443"], token: "gt_x")
        try plain.save(to: path)
        #expect(try ConfigFile.load(from: path).league == nil)
        #expect(try !String(contentsOfFile: path, encoding: .utf8).contains("league"))
    }

    @Test func theDefaultLeaguesStateFileKeepsItsPreLeagueNameAndEveryOtherLeagueHasItsOwn() throws {
        let directory = try scratch()
        let env = environment(directory)
        let office = try LeagueSlug(validating: "office")
        var settings = try ClientSettings.resolve(try Tail.parse([]).connection, environment: env)
        // The name goal-client gave this login before leagues (SHA-256 of "goal-client state v1\nwss://a:7443\ngt_test").
        let preLeague = directory + "/state/goal-client/league-87d35562b8f49e89.sqlite"
        #expect(ClientStatePath.database(for: settings, environment: env) == preLeague)
        settings.league = office
        let officePath = ClientStatePath.database(for: settings, environment: env)
        #expect(officePath == directory + "/state/goal-client/league-87d35562b8f49e89-office.sqlite")
        settings.league = try LeagueSlug(validating: "home")
        #expect(ClientStatePath.database(for: settings, environment: env) != officePath)
    }

    @Test func anEditQueuedInOneLeagueIsNeverOfferedToAnother() throws {
        let directory = try scratch()
        let env = environment(directory)
        let office = try LeagueSlug(validating: "office")
        var settings = try ClientSettings.resolve(try Tail.parse([]).connection, environment: env)
        settings.league = office
        let mutation = Mutation(
            id: MutationID(instance: ClientInstanceID("office-instance")!, seq: 1),
            base: 0,
            action: .createPlayer(id: PlayerID(), name: "Ada")
        )
        do {
            let store: any ClientStateStore = try ClientStateOpening.open(settings, environment: env)
            let officeState = try store.load()
            try store.recordQueued(
                Mutation(id: MutationID(instance: officeState.instance, seq: 1), base: 0, action: mutation.action)
            )
            #expect(try store.load().outbox.count == 1)
        }
        settings.league = try LeagueSlug(validating: "home")
        let home: any ClientStateStore = try ClientStateOpening.open(settings, environment: env)
        #expect(try home.load().outbox.isEmpty, "league home's outbox holds nothing of office's")
        settings.league = nil
        let main: any ClientStateStore = try ClientStateOpening.open(settings, environment: env)
        #expect(try main.load().outbox.isEmpty, "nor the default league's")
        settings.league = office
        let again: any ClientStateStore = try ClientStateOpening.open(settings, environment: env)
        #expect(try again.load().outbox.map(\.mutation.action) == [mutation.action], "office keeps its own")
    }
}
