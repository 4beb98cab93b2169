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

/// `goald migrate` with a SQLite league catalog: every league lands in a schema of its own, intact (issue 37 point 4).
@Suite(
    "goald migrate into PostgreSQL: leagues",
    .enabled(if: PostgresTestServer.isEnabled, Comment(rawValue: PostgresTestServer.skipMessage)),
    .slotted
)
struct MigrateLeaguesTests {
    @Test("each league is copied with its epoch, log bytes, digests and client records; names, grants kept")
    func migrateCopiesEveryLeague() async throws {
        let database = try PostgresTestServer.makeDatabase()
        defer { try? PostgresTestServer.dropDatabase(database) }  // cleanup only
        let directory = try TemporaryDirectory()
        let source = try SQLiteLeagueStorage(path: directory.file("goald.sqlite"))
        try addPlayers(["Ada"], to: source)
        let office = LeagueInfo(
            slug: try LeagueSlug(validating: "office-berlin"),
            name: try PlayerName(validating: "Office Berlin"),
            created: Timestamp(millisecondsSince1970: 1_767_225_600_000)
        )
        let home = LeagueInfo(
            slug: try LeagueSlug(validating: "home"),
            name: try PlayerName(validating: "Home"),
            created: Timestamp(millisecondsSince1970: 1_767_225_700_000)
        )
        try source.createLeague(office)
        try source.createLeague(home)
        _ = try source.renameLeague(.default, to: try PlayerName(validating: "Headquarters"))
        var expected: [LeagueSlug: (league: DurableLeague, log: [LogFrame])] = [:]
        for (slug, names) in [(office.slug, ["Bea", "Cy", "Dee"]), (home.slug, ["Eve"])] {
            let league = try source.openLeague(slug)
            try addPlayers(names, to: league)
            try addPlayers(["Fay"], to: league)
            let durable = try league.recover()
            expected[slug] = (durable, try league.backlog(after: 0, upTo: durable.head, limit: 100))
            try league.close()
        }
        let grants: [LeagueSlug: Role] = [office.slug: .admin, home.slug: .viewer]
        try source.createToken(
            StoredToken(
                name: "scoped",
                role: .viewer,
                secretHash: TokenSecret.hash(presented: "gt_scoped-test"),
                created: Timestamp(millisecondsSince1970: 1_767_225_600_000),
                leagues: grants
            )
        )
        try source.close()

        var url = database
        url.password = nil
        let environment = ["HOME": directory.path, "GOALD_STORE_PASSWORD": database.password ?? ""]
        let words = ["migrate", "--from", "goald.sqlite", "--to", url.description, "--state-dir", directory.file("s")]
        let command = try #require(try Goald.parseAsRoot(words) as? Goald.Migrate)
        let output = OutputCapture()
        try await command.run(
            in: output.context(environment: environment, workingDirectory: directory.path, terminal: false)
        )
        #expect(output.text.contains("league office-berlin (Office Berlin): head revision 4"), "\(output.text)")
        #expect(output.text.contains("league home (Home): head revision 2"), "\(output.text)")

        let copy = try PostgresLeagueStorage(configuration: database)
        defer { try? copy.close() }  // cleanup only
        #expect(try copy.leagues().map(\.slug) == [.default, home.slug, office.slug])
        #expect(try copy.league(office.slug) == office && (try copy.league(home.slug)) == home)
        #expect(try copy.league(.default)?.name.value == "Headquarters")
        #expect(try copy.recover().head == 1, "the default league is the home database's")
        #expect(try copy.token(secretHash: TokenSecret.hash(presented: "gt_scoped-test"))?.leagues == grants)
        for (slug, source) in expected {
            let league = try copy.openLeagueStore(slug)
            defer { try? league.close() }  // cleanup only
            var copied = try league.recover()
            copied.version = source.league.version
            #expect(copied == source.league, "same state, epoch, head digest, client records and log bounds")
            #expect(try league.backlog(after: 0, upTo: source.league.head, limit: 100) == source.log)
        }
    }
}
