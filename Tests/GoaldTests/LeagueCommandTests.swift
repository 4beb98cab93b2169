import ArgumentParser
import Foundation
import GoalModel
import GoalPostgres
import GoalServer
import GoalStore
import GoalTestSlots
import GoalTestSupport
import Testing

@testable import goald

/// `goald league …` and `goald token create --league …`, run in process against a temporary state directory.
@Suite("goald league and token grants", .slotted)
struct LeagueCommandTests {
    private func run<Command: GoaldRunnable>(
        _ type: Command.Type,
        _ arguments: [String],
        in directory: TemporaryDirectory,
        terminal: Bool = false,
        typed: String? = nil
    ) async throws -> String {
        let command = try #require(try Goald.parseAsRoot(arguments) as? Command)
        let output = OutputCapture()
        var context = output.context(
            environment: ["HOME": directory.path],
            workingDirectory: directory.path,
            terminal: terminal
        )
        context.standardInputIsTerminal = terminal
        context.readLine = { typed }
        try await command.run(in: context)
        return output.text
    }

    /// The state directory's database, as a first `goald serve` makes it; returns `--state-dir DIR`.
    private func makeState(in directory: TemporaryDirectory) throws -> [String] {
        try FileManager.default.createDirectory(atPath: directory.file("state"), withIntermediateDirectories: true)
        try SQLiteLeagueStorage(path: directory.file("state/goald.sqlite")).close()
        return ["--state-dir", directory.file("state")]
    }

    private func storedLeagues(_ directory: TemporaryDirectory) throws -> [String] {
        let storage = try SQLiteLeagueStorage(path: directory.file("state/goald.sqlite"))
        defer { try? storage.close() }  // cleanup only: the read is done
        return try storage.leagues().map(\.slug.rawValue)
    }

    @Test("create (name defaults to the id), list as a table and as JSON, rename; the league's file exists")
    func createListRename() async throws {
        let directory = try TemporaryDirectory()
        let state = try makeState(in: directory)
        let created = try await run(
            Goald.League.Create.self,
            ["league", "create", "office", "--name", "Office Berlin"] + state,
            in: directory
        )
        #expect(created.hasPrefix("Created league \"office\" (Office Berlin)."))
        _ = try await run(Goald.League.Create.self, ["league", "create", "a-team"] + state, in: directory)
        #expect(FileManager.default.fileExists(atPath: directory.file("state/leagues/office.sqlite")))

        let table = try await run(Goald.League.List.self, ["league", "list"] + state, in: directory)
        let lines = table.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix("ID       NAME            CREATED"))
        #expect(lines[1].hasPrefix("default  \(LeagueInfo.defaultName)"))
        #expect(lines[2].hasPrefix("a-team   a-team"))
        #expect(lines[3].hasPrefix("office   Office Berlin"))

        let renamed = try await run(
            Goald.League.Rename.self,
            ["league", "rename", "default", "Head office"] + state,
            in: directory
        )
        #expect(renamed == "Renamed league \"default\" to \"Head office\".")
        let json = try await run(Goald.League.List.self, ["league", "list", "--json"] + state, in: directory)
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect(entries.map { $0["id"] as? String } == ["default", "a-team", "office"])
        #expect(entries.map { $0["name"] as? String } == ["Head office", "a-team", "Office Berlin"])
        #expect(entries.allSatisfy { ($0["created"] as? String)?.hasSuffix("Z") == true })
    }

    @Test("errors: a bad id, the default league, an existing id, an unknown id, no database")
    func errors() async throws {
        let directory = try TemporaryDirectory()
        let state = try makeState(in: directory)
        let badID = #expect(throws: (any Error).self) {
            _ = try Goald.parseAsRoot(["league", "create", "Office"] + state)
        }
        #expect(badID.map { Goald.message(for: $0).contains("\"Office\" is not a league id") } == true)

        func code(_ arguments: [String], _ type: (some GoaldRunnable).Type) async -> StorageError.Code? {
            await #expect(throws: StorageError.self) { _ = try await self.run(type, arguments + state, in: directory) }?
                .code
        }
        #expect(await code(["league", "create", "default"], Goald.League.Create.self) == .defaultLeague)
        _ = try await run(Goald.League.Create.self, ["league", "create", "office"] + state, in: directory)
        #expect(await code(["league", "create", "office"], Goald.League.Create.self) == .leagueExists)
        #expect(await code(["league", "rename", "nowhere", "X"], Goald.League.Rename.self) == .leagueNotFound)
        #expect(await code(["league", "delete", "nowhere", "--yes"], Goald.League.Delete.self) == .leagueNotFound)
        #expect(await code(["league", "delete", "default", "--yes"], Goald.League.Delete.self) == .defaultLeague)

        let fresh = try TemporaryDirectory()
        let noDatabase = await #expect(throws: CommandFailure.self) {
            _ = try await self.run(
                Goald.League.Delete.self,
                ["league", "delete", "office", "--yes", "--state-dir", fresh.file("s")],
                in: fresh
            )
        }
        #expect(noDatabase?.description.hasPrefix("no database at \(fresh.file("s/goald.sqlite"))") == true)
        #expect(!FileManager.default.fileExists(atPath: fresh.file("s")))
    }

    @Test("delete asks for the id on a terminal, refuses without one unless --yes, and removes the league's file")
    func deleteConfirms() async throws {
        let directory = try TemporaryDirectory()
        let state = try makeState(in: directory)
        _ = try await run(Goald.League.Create.self, ["league", "create", "office"] + state, in: directory)
        let delete = ["league", "delete", "office"] + state

        let noTerminal = await #expect(throws: CommandFailure.self) {
            _ = try await self.run(Goald.League.Delete.self, delete, in: directory)
        }
        #expect(noTerminal?.description.contains("standard input is not a terminal") == true)
        #expect(noTerminal?.description.hasSuffix("add --yes") == true)
        let mistyped = await #expect(throws: CommandFailure.self) {
            _ = try await self.run(Goald.League.Delete.self, delete, in: directory, terminal: true, typed: "ofice")
        }
        #expect(mistyped?.description == "not deleted: you typed \"ofice\", not \"office\"")
        #expect(try storedLeagues(directory) == ["default", "office"])

        let confirmed = try await run(Goald.League.Delete.self, delete, in: directory, terminal: true, typed: "office")
        #expect(confirmed.contains("Type the league's id (office) to confirm:"))
        #expect(confirmed.hasSuffix("Deleted league \"office\" with all its data."))
        #expect(try storedLeagues(directory) == ["default"])
        #expect(!FileManager.default.fileExists(atPath: directory.file("state/leagues/office.sqlite")))

        _ = try await run(Goald.League.Create.self, ["league", "create", "home"] + state, in: directory)
        _ = try await run(Goald.League.Delete.self, ["league", "delete", "home", "--yes"] + state, in: directory)
        #expect(try storedLeagues(directory) == ["default"])
    }

    @Test("delete refuses while a goald holds the state directory and names the REST call instead")
    func deleteRefusedWhileRunning() async throws {
        let directory = try TemporaryDirectory()
        let configuration = testConfiguration(directory)
        let prepared = try StatePreparation.prepare(configuration, logger: silentLogger)
        let state = ["--state-dir", configuration.stateDirectory]
        _ = try await run(Goald.League.Create.self, ["league", "create", "office"] + state, in: directory)

        let refused = await #expect(throws: CommandFailure.self) {
            _ = try await self.run(
                Goald.League.Delete.self,
                ["league", "delete", "office", "--yes"] + state,
                in: directory
            )
        }
        let message = refused?.description ?? ""
        #expect(message.hasPrefix("not deleted: a goald (pid \(getpid())) is running on this state directory"))
        #expect(message.contains("DELETE /api/v1/leagues/office with an operator token"))
        let catalog = try #require(prepared.storage as? any LeagueCatalog)
        #expect(try catalog.league(LeagueSlug(validating: "office")) != nil)

        try prepared.close()
        _ = try await run(Goald.League.Delete.self, ["league", "delete", "office", "--yes"] + state, in: directory)
        #expect(try storedLeagues(directory) == ["default"])
    }

    @Test("token create --league: grants stored, unknown leagues refused, listed as a table and as JSON")
    func tokenGrants() async throws {
        let directory = try TemporaryDirectory()
        let state = try makeState(in: directory)
        for slug in ["office", "home"] {
            _ = try await run(Goald.League.Create.self, ["league", "create", slug] + state, in: directory)
        }
        let explained = try await run(
            Goald.Token.Create.self,
            ["token", "create", "--name", "scoped", "--league", "office=admin", "--league", "home", "--role", "viewer"]
                + state,
            in: directory,
            terminal: true
        )
        #expect(explained.hasPrefix("Created token \"scoped\" (only leagues home as viewer, office as admin)."))
        _ = try await run(
            Goald.Token.Create.self,
            ["token", "create", "--name", "wall", "--league", "default=viewer"] + state,
            in: directory
        )
        _ = try await run(
            Goald.Token.Create.self,
            ["token", "create", "--name", "everyone", "--role", "editor"] + state,
            in: directory
        )

        let unknown = await #expect(throws: StorageError.self) {
            _ = try await self.run(
                Goald.Token.Create.self,
                ["token", "create", "--name", "lost", "--league", "office=admin", "--league", "nowhere=viewer"] + state,
                in: directory
            )
        }
        #expect(unknown?.code == .leagueNotFound)
        #expect(unknown?.description.contains("\"nowhere\"") == true)
        let noRole = #expect(throws: (any Error).self) {
            _ = try Goald.parseAsRoot(["token", "create", "--name", "x", "--league", "office"] + state)
        }
        #expect(noRole.map { Goald.message(for: $0).contains("or give --role for the leagues without one") } == true)
        let twice = #expect(throws: (any Error).self) {
            _ = try Goald.parseAsRoot(
                ["token", "create", "--name", "x", "--league", "a=admin", "--league", "a=viewer"] + state
            )
        }
        #expect(twice.map { Goald.message(for: $0).contains("--league a is given twice") } == true)
        let neither = #expect(throws: (any Error).self) {
            _ = try Goald.parseAsRoot(["token", "create", "--name", "x"] + state)
        }
        #expect(
            neither.map { Goald.message(for: $0).contains("or confine the token to leagues with --league") } == true
        )

        let storage = try SQLiteLeagueStorage(path: directory.file("state/goald.sqlite"))
        let tokens = try storage.tokens()
        try storage.close()
        let office = try LeagueSlug(validating: "office")
        let home = try LeagueSlug(validating: "home")
        #expect(tokens.map(\.name) == ["scoped", "wall", "everyone"])
        #expect(tokens[0].leagues == [office: .admin, home: .viewer] && tokens[0].role == .admin)
        #expect(tokens[1].leagues == [.default: .viewer] && tokens[1].role == .viewer)
        #expect(tokens[2].leagues.isEmpty && tokens[2].role == .editor)

        let table = try await run(Goald.Token.List.self, ["token", "list"] + state, in: directory)
        let lines = table.split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("NAME      ROLE    LEAGUES                   CREATED"))
        #expect(lines[1].hasPrefix("scoped    admin   home=viewer,office=admin  "))
        #expect(lines[2].hasPrefix("wall      viewer  default=viewer            "))
        #expect(lines[3].hasPrefix("everyone  editor  all leagues               "))
        let json = try await run(Goald.Token.List.self, ["token", "list", "--json"] + state, in: directory)
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect(entries[0]["leagues"] as? [String: String] == ["office": "admin", "home": "viewer"])
        #expect(entries[1]["leagues"] as? [String: String] == ["default": "viewer"])
        #expect(entries[2]["leagues"] is NSNull)
    }
}

extension Goald.League.Create: GoaldRunnable {}
extension Goald.League.List: GoaldRunnable {}
extension Goald.League.Rename: GoaldRunnable {}
extension Goald.League.Delete: GoaldRunnable {}

/// `goald league` and `token create --league` against a PostgreSQL URL: the catalog lives in the store.
@Suite(
    "goald league on PostgreSQL",
    .enabled(if: PostgresTestServer.isEnabled, Comment(rawValue: PostgresTestServer.skipMessage)),
    .slotted
)
struct PostgresLeagueCommandTests {
    @Test("league create, list, rename and delete --yes, and a confined token, work against --store")
    func leaguesInPostgres() async throws {
        let database = try PostgresTestServer.makeDatabase()
        defer { try? PostgresTestServer.dropDatabase(database) }  // cleanup only
        let directory = try TemporaryDirectory()
        var url = database
        url.password = nil
        let arguments = ["--state-dir", directory.file("state"), "--store", url.description]
        let environment = ["HOME": directory.path, "GOALD_STORE_PASSWORD": database.password ?? ""]
        func run(_ words: [String]) async throws -> String {
            let command = try #require(try Goald.parseAsRoot(words + arguments) as? any GoaldRunnable)
            let output = OutputCapture()
            try await command.run(
                in: output.context(environment: environment, workingDirectory: directory.path, terminal: false)
            )
            return output.text
        }
        _ = try await run(["league", "create", "office", "--name", "Office"])
        _ = try await run(["league", "create", "home"])
        _ = try await run(["league", "rename", "home", "Home"])
        _ = try await run(["token", "create", "--name", "scoped", "--league", "office=admin"])
        let refused = await #expect(throws: StorageError.self) {
            _ = try await run(["token", "create", "--name", "lost", "--league", "nowhere=admin"])
        }
        #expect(refused?.code == .leagueNotFound)
        _ = try await run(["league", "delete", "office", "--yes"])

        let storage = try PostgresLeagueStorage(configuration: database)
        defer { try? storage.close() }  // cleanup only
        #expect(try storage.leagues().map(\.slug.rawValue) == ["default", "home"])
        #expect(try storage.leagues().last?.name.value == "Home")
        #expect(try storage.tokens().map(\.name) == ["scoped"])
        #expect(try storage.tokens().first?.leagues == [try LeagueSlug(validating: "office"): .admin])
        #expect(!FileManager.default.fileExists(atPath: directory.file("state/goald.sqlite")), "no SQLite file made")
    }
}
