import ArgumentParser
import Configuration
import Foundation
import GoalModel
import GoalPostgres
import GoalServer
import GoalStore
import GoalTestSlots
import GoalTestSupport
import Testing

@testable import goald

/// `store.url` (`--store`, `GOALD_STORE_URL`): the PostgreSQL store, its password never from a flag.
@Suite("goald: the PostgreSQL store's configuration", .slotted)
struct StoreConfigurationTests {
    private func load(
        _ directory: TemporaryDirectory,
        environment: [String: String] = [:],
        flags: [String: String] = [:]
    ) async throws(ConfigurationError) -> EffectiveConfiguration {
        var sources = ConfigurationSources(
            environment: ["HOME": directory.path].merging(environment) { $1 },
            workingDirectory: directory.path
        )
        for (key, value) in flags { sources.setFlag(key, .string(value), from: "--store") }
        return try await EffectiveConfiguration.load(sources)
    }

    @Test("unset: SQLite in the state directory, as before")
    func defaultIsSQLite() async throws {
        #expect(try await load(try TemporaryDirectory()).postgres == nil)
    }

    @Test("--store with the password from GOALD_STORE_PASSWORD")
    func flagAndEnvironmentPassword() async throws {
        let loaded = try await load(
            try TemporaryDirectory(),
            environment: ["GOALD_STORE_PASSWORD": "pw"],
            flags: ["store.url": "postgres://goald@db.example/goal"]
        )
        #expect(
            loaded.postgres
                == PostgresStoreConfiguration(host: "db.example", username: "goald", password: "pw", database: "goal")
        )
    }

    @Test("a password in the URL is taken from the environment, refused on the command line")
    func passwordOnTheCommandLine() async throws {
        let directory = try TemporaryDirectory()
        let fromEnvironment = try await load(directory, environment: ["GOALD_STORE_URL": "postgres://u:pw@h/db"])
        #expect(fromEnvironment.postgres?.password == "pw")
        let error = await #expect(throws: ConfigurationError.self) {
            try await load(directory, flags: ["store.url": "postgres://u:pw@h/db"])
        }
        let problems = error?.problems.map(\.description) ?? []
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("store.url (flag --store): a password on the command line") == true)
        #expect(problems.first?.contains("pw@") == false)
    }

    @Test("the password file's first line; an unreadable file and a bad URL are named")
    func passwordFileAndBadURL() async throws {
        let directory = try TemporaryDirectory()
        try "s3cret\nignored\n".write(toFile: directory.file("pg-password"), atomically: true, encoding: .utf8)
        let loaded = try await load(
            directory,
            environment: ["GOALD_STORE_URL": "postgres://u@h/db", "GOALD_STORE_PASSWORD_FILE": "pg-password"]
        )
        #expect(loaded.postgres?.password == "s3cret")

        let missing = await #expect(throws: ConfigurationError.self) {
            try await load(
                directory,
                environment: ["GOALD_STORE_URL": "postgres://u@h/db", "GOALD_STORE_PASSWORD_FILE": "nowhere"]
            )
        }
        #expect(missing?.problems.first?.description.hasPrefix("store.passwordFile (environment") == true)
        let bad = await #expect(throws: ConfigurationError.self) {
            try await load(directory, environment: ["GOALD_STORE_URL": "mysql://u@h/db"])
        }
        #expect(bad?.problems.first?.description.contains("must start with postgres://") == true)
    }
}

/// `goald token` against a PostgreSQL URL: tokens live in the store, reachable from any machine.
@Suite(
    "goald token on PostgreSQL",
    .enabled(if: PostgresTestServer.isEnabled, Comment(rawValue: PostgresTestServer.skipMessage)),
    .slotted
)
struct PostgresTokenCommandTests {
    @Test("token create, list and revoke work against --store; the password comes from the environment")
    func tokensInPostgres() async throws {
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
        let secret = try await run(["token", "create", "--name", "carol", "--role", "editor"])
        #expect(try await run(["token", "list"]).contains("carol"))
        #expect(try await run(["token", "revoke", "carol"]).hasPrefix("Revoked token \"carol\""))

        let storage = try PostgresLeagueStorage(configuration: database)
        defer { try? storage.close() }  // cleanup only
        let stored = try #require(try storage.token(secretHash: TokenSecret.hash(presented: secret)))
        #expect(stored.name == "carol" && stored.isRevoked)
        #expect(!FileManager.default.fileExists(atPath: directory.file("state/goald.sqlite")), "no SQLite file made")
    }
}

/// `goald check-config` connects to a PostgreSQL store and reads it without changing it (issue 15 point 6).
@Suite(
    "goald check-config on PostgreSQL",
    .enabled(if: PostgresTestServer.isEnabled, Comment(rawValue: PostgresTestServer.skipMessage)),
    .slotted
)
struct PostgresCheckConfigTests {
    @Test("a reachable database: its schema and head are shown, nothing is created; an unreachable one is a problem")
    func checksTheStore() async throws {
        let database = try PostgresTestServer.makeDatabase()
        defer { try? PostgresTestServer.dropDatabase(database) }  // cleanup only
        let directory = try TemporaryDirectory()
        var url = database
        url.password = nil
        let environment = ["HOME": directory.path, "GOALD_STORE_PASSWORD": database.password ?? ""]
        func check(_ store: String) async throws -> (text: String, usable: Bool) {
            let words = ["check-config", "--state-dir", directory.file("state"), "--store", store]
            let command = try #require(try Goald.parseAsRoot(words) as? Goald.CheckConfig)
            let output = OutputCapture()
            do {
                try await command.run(
                    in: output.context(environment: environment, workingDirectory: directory.path, terminal: false)
                )
                return (output.text, true)
            } catch {
                return (output.text, false)
            }
        }
        let fresh = try await check(url.description)
        #expect(fresh.usable, "\(fresh.text)")
        #expect(fresh.text.contains("answers; no goald schema yet"), "\(fresh.text)")
        #expect(try await check(url.description).text.contains("no goald schema yet"), "check-config created nothing")

        try PostgresLeagueStorage(configuration: database).close()
        let migrated = try await check(url.description)
        #expect(migrated.text.contains("goald schema v8, head revision 0"), "\(migrated.text)")

        var unreachable = url
        unreachable.port = 1
        let down = try await check(unreachable.description)
        #expect(!down.usable)
        #expect(down.text.contains("problem: store.url: \(unreachable) cannot be used"), "\(down.text)")
    }
}

/// `goald migrate --from FILE --to postgres://…` (issue 15 point 6).
@Suite(
    "goald migrate into PostgreSQL",
    .enabled(if: PostgresTestServer.isEnabled, Comment(rawValue: PostgresTestServer.skipMessage)),
    .slotted
)
struct MigrateCommandTests {
    @Test("the copy recovers to the source's league with the same log bytes and epoch; a second run is refused")
    func migrateCopiesTheLeague() async throws {
        let database = try PostgresTestServer.makeDatabase()
        defer { try? PostgresTestServer.dropDatabase(database) }  // cleanup only
        let directory = try TemporaryDirectory()
        let path = directory.file("goald.sqlite")
        let source = try SQLiteLeagueStorage(path: path)
        try addPlayers(["Ada", "Bea", "Cy"], to: source)
        try addPlayers(["Dee"], to: source)
        try source.createToken(
            StoredToken(
                name: "alice",
                role: .editor,
                secretHash: TokenSecret.hash(presented: "gt_migrate-test"),
                created: Timestamp(millisecondsSince1970: 1_767_225_600_000),
                revoked: nil
            )
        )
        let league = try source.recover()
        let log = try source.backlog(after: 0, upTo: league.head, limit: 100)
        let dee = try #require(league.state.allPlayers.first { $0.name == "Dee" })
        let deeHistory = try source.history(of: .player(dee.id), before: nil, limit: 10)
        #expect(deeHistory.frames.map(\.revision) == [4])
        try source.close()

        var url = database
        url.password = nil
        let environment = ["HOME": directory.path, "GOALD_STORE_PASSWORD": database.password ?? ""]
        func migrate() async throws -> String {
            let words = [
                "migrate", "--from", "goald.sqlite", "--to", url.description, "--state-dir", directory.file("s"),
            ]
            let command = try #require(try Goald.parseAsRoot(words) as? Goald.Migrate)
            let output = OutputCapture()
            try await command.run(
                in: output.context(environment: environment, workingDirectory: directory.path, terminal: false)
            )
            return output.text
        }
        let report = try await migrate()
        #expect(report.contains("head revision 4, digest \(league.headDigest)"))
        #expect(report.contains("4 players, 0 matches, 1 client instances, 1 tokens, 4 changesets"))

        let copy = try PostgresLeagueStorage(configuration: database)
        defer { try? copy.close() }  // cleanup only
        var copied = try copy.recover()
        #expect(copied.version == 1, "the import is the store's first write")
        copied.version = league.version
        #expect(copied == league, "same state, head digest, epoch and retained log")
        #expect(try copy.backlog(after: 0, upTo: league.head, limit: 100) == log, "the same frame bytes")
        #expect(try copy.history(of: .player(dee.id), before: nil, limit: 10) == deeHistory, "the history index too")
        #expect(try copy.token(secretHash: TokenSecret.hash(presented: "gt_migrate-test"))?.name == "alice")

        await #expect {
            _ = try await migrate()
        } throws: { error in
            "\(error)".contains("already holds a league (revision 4")
        }
    }
}
