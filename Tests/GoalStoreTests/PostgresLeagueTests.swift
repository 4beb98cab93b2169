import Foundation
import GoalModel
import GoalStore
import GoalTestSlots
import GoalTestSupport
import Testing

@testable import GoalPostgres

/// Leagues on one PostgreSQL database (`PostgresLeagueStorage+Leagues.swift`): the catalog, each league's own schema,
/// head, digest chain and epoch, token grants, and a database of the previous schema becoming the default league.
@Suite(
    "PostgreSQL store: leagues",
    .enabled(if: PostgresTestServer.isEnabled, Comment(rawValue: PostgresTestServer.skipMessage)),
    .slotted
)
struct PostgresLeagueTests {
    private func home(_ harness: StoreHarness) throws -> PostgresLeagueStorage {
        try #require(harness.storage as? PostgresLeagueStorage)
    }

    private func info(_ slug: String, _ name: String, at millis: Int64 = 1_700_000_000_000) throws -> LeagueInfo {
        LeagueInfo(
            slug: try LeagueSlug(validating: slug),
            name: try PlayerName(validating: name),
            created: Timestamp(millisecondsSince1970: millis)
        )
    }

    @Test("the catalog: the default league first, others by slug; create, rename, delete and their refusals; kept")
    func catalogRoundTrip() throws {
        let harness = try StoreHarness(.postgres)
        let store = try home(harness)
        #expect(try store.leagues().map(\.slug) == [.default])
        #expect(try store.league(.default)?.name.value == LeagueInfo.defaultName)

        let office = try info("office-berlin", "Office Berlin")
        let home = try info("home", "Home", at: 1_700_000_100_000)
        try store.createLeague(office)
        try store.createLeague(home)
        #expect(try store.leagues() == [try #require(try store.league(.default)), home, office])
        #expect(try store.league(office.slug) == office)
        #expect(try store.league(try LeagueSlug(validating: "nowhere")) == nil)

        #expect(throws: StorageError.leagueExists(office.slug)) { try store.createLeague(office) }
        #expect(throws: StorageError.defaultLeague(operation: "created")) {
            try store.createLeague(try info("default", "Again"))
        }

        let renamed = try store.renameLeague(office.slug, to: try PlayerName(validating: "Berlin"))
        #expect(
            renamed
                == LeagueInfo(slug: office.slug, name: try PlayerName(validating: "Berlin"), created: office.created)
        )
        let created = try #require(try store.league(.default)).created
        let renamedDefault = try store.renameLeague(.default, to: try PlayerName(validating: "Main"))
        #expect(renamedDefault.name.value == "Main" && renamedDefault.created == created)
        #expect(throws: StorageError.leagueNotFound(try LeagueSlug(validating: "nowhere"))) {
            _ = try store.renameLeague(try LeagueSlug(validating: "nowhere"), to: try PlayerName(validating: "X"))
        }

        try store.deleteLeague(home.slug)
        #expect(throws: StorageError.leagueNotFound(home.slug)) { try store.deleteLeague(home.slug) }
        #expect(throws: StorageError.leagueNotFound(home.slug)) { _ = try store.openLeague(home.slug) }
        #expect(throws: StorageError.defaultLeague(operation: "deleted")) { try store.deleteLeague(.default) }
        // Its schema went with it: the league can be made again, empty.
        try store.createLeague(home)
        let again = try store.openLeagueStore(home.slug)
        #expect(try again.logBounds().head == 0)
        try again.close()

        try harness.reopen()
        let reopened = try self.home(harness)
        #expect(try reopened.leagues().map(\.slug) == [.default, home.slug, office.slug])
        #expect(try reopened.league(.default)?.name.value == "Main")
    }

    @Test(
        "two leagues' logs are independent: own epoch, head, digest chain, backlog and changes; the default untouched"
    )
    func leaguesAreIndependent() throws {
        let harness = try StoreHarness(.postgres)
        let store = try home(harness)
        try store.createLeague(try info("alpha", "Alpha"))
        try store.createLeague(try info("beta", "Beta"))
        let alpha = try store.openLeagueStore(try LeagueSlug(validating: "alpha"))
        defer { try? alpha.close() }  // cleanup only
        let beta = try store.openLeagueStore(try LeagueSlug(validating: "beta"))
        defer { try? beta.close() }  // cleanup only
        #expect(Set([try store.epoch(), try alpha.epoch(), try beta.epoch()]).count == 3, "a fresh epoch each")

        var inAlpha = LeagueDriver()
        inAlpha.mutate(.createPlayer(id: PlayerID(), name: "ada"), by: .alpha)
        inAlpha.mutate(.createPlayer(id: PlayerID(), name: "bea"), by: .alpha)
        try alpha.append(inAlpha.takeBatch())
        var inBeta = LeagueDriver()
        inBeta.mutate(.createPlayer(id: PlayerID(), name: "cid"), by: .beta)
        try beta.append(inBeta.takeBatch())

        let origin = StoreHead(revision: 0, version: 0)
        #expect(try alpha.logBounds().head == 2)
        #expect(try beta.logBounds().head == 1)
        #expect(try store.logBounds().head == 0, "the default league saw nothing")
        #expect(try alpha.recover().headDigest == inAlpha.digest)
        #expect(try beta.recover().headDigest == inBeta.digest)
        #expect(try beta.recover().state == inBeta.state)
        #expect(try beta.backlog(after: 0, upTo: 10, limit: 10).map(\.bytes) == [try #require(inBeta.frames[1])])
        #expect(try beta.changes(after: origin).commits.map(\.revision) == [1])
        #expect(try alpha.changes(after: origin).commits.map(\.revision) == [1, 2])
        #expect(try store.changes(after: origin).commits.isEmpty)
        #expect(try store.backlog(after: 0, upTo: 10, limit: 10).isEmpty)

        // Each league's head row is its own: a batch decided on alpha's head does not follow beta's.
        var stale = LeagueDriver(recovered: try alpha.recover())
        stale.mutate(.createPlayer(id: PlayerID(), name: "dan"), by: .alpha)
        #expect(throws: StorageError.revisionGap(expected: 2, found: 3)) { try beta.append(stale.takeBatch()) }
        let betaEpoch = try beta.epoch()
        let homeEpoch = try store.epoch()
        #expect(try alpha.rotateEpoch() == (try alpha.epoch()))
        #expect(try beta.epoch() == betaEpoch && (try store.epoch()) == homeEpoch, "an epoch is one league's")
    }

    @Test("while one league's head row is locked, another league and the default league commit without waiting")
    func headRowsAreIndependent() throws {
        let harness = try StoreHarness(.postgres)
        let database = try #require(harness.postgresDatabase)
        // Any wait for a lock fails after 20 s instead of hanging the test (for connections opened from here on).
        try PostgresTestServer.execute("ALTER DATABASE \(database.database) SET lock_timeout = '20s'", in: database)
        try harness.reopen()
        let store = try home(harness)
        try store.createLeague(try info("alpha", "Alpha"))
        try store.createLeague(try info("beta", "Beta"))
        let alpha = try store.openLeagueStore(try LeagueSlug(validating: "alpha"))
        defer { try? alpha.close() }  // cleanup only
        let beta = try store.openLeagueStore(try LeagueSlug(validating: "beta"))
        defer { try? beta.close() }  // cleanup only
        try PostgresTestServer.holdingRow(of: "goald_league_alpha.league", in: database) {
            #expect(!Self.rowIsFree("goald_league_alpha.league", in: database), "alpha's row is held")
            var inBeta = LeagueDriver()
            inBeta.mutate(.createPlayer(id: PlayerID(), name: "ada"), by: .beta)
            try beta.append(inBeta.takeBatch())
            var inDefault = LeagueDriver()
            inDefault.mutate(.createPlayer(id: PlayerID(), name: "bea"), by: .alpha)
            try store.append(inDefault.takeBatch())
            #expect(Self.rowIsFree("goald_league_beta.league", in: database))
        }
        #expect(try beta.logBounds().head == 1 && (try store.logBounds().head) == 1)
        #expect(try alpha.logBounds().head == 0)
    }

    /// Whether another connection can lock a league row right now (`FOR UPDATE NOWAIT` fails when it is held).
    private static func rowIsFree(_ table: String, in database: PostgresStoreConfiguration) -> Bool {
        do {
            try PostgresTestServer.execute("SELECT 1 FROM \(table) WHERE id = 1 FOR UPDATE NOWAIT", in: database)
            return true
        } catch {
            return false  // 55P03 lock_not_available: the row is held
        }
    }

    @Test("a token's league grants are stored and read back everywhere a token is read; none means every league")
    func tokenGrantsRoundTrip() throws {
        let harness = try StoreHarness(.postgres)
        let store = try home(harness)
        let created = Timestamp(millisecondsSince1970: 1_700_000_000_000)
        let office = try LeagueSlug(validating: "office")
        let home = try LeagueSlug(validating: "home")
        let scoped = StoredToken(
            name: "scoped",
            role: .viewer,
            secretHash: testHash(1),
            created: created,
            leagues: [office: .admin, home: .viewer]
        )
        let operatorToken = StoredToken(name: "operator", role: .admin, secretHash: testHash(2), created: created)
        try store.createToken(scoped)
        try store.createToken(operatorToken)

        #expect(try store.tokens() == [operatorToken, scoped])
        let read = try #require(try store.token(secretHash: testHash(1)))
        #expect(read.leagues == [office: .admin, home: .viewer] && read.role == .admin)
        #expect(read.role(in: home) == .viewer && read.role(in: .default) == nil && !read.isOperator)
        #expect(try store.token(secretHash: testHash(2))?.isOperator == true)
        let revoked = try store.revokeToken(named: "scoped", at: created)
        #expect(revoked.leagues == scoped.leagues && revoked.revoked == created)
        try harness.reopen()
        #expect(try self.home(harness).tokens().first { $0.name == "scoped" }?.leagues == scoped.leagues)
    }

    @Test("a database of schema v6 (before leagues) upgrades in place: same epoch, head, digest and tokens")
    func upgradeKeepsTheDefaultLeague() throws {
        let harness = try StoreHarness(.postgres)
        let database = try #require(harness.postgresDatabase)
        var driver = LeagueDriver()
        driver.mutate(.createPlayer(id: PlayerID(), name: "ada"), by: .alpha)
        driver.mutate(.createPlayer(id: PlayerID(), name: "bea"), by: .beta)
        try harness.storage.append(driver.takeBatch())
        let token = StoredToken(
            name: "old",
            role: .editor,
            secretHash: testHash(3),
            created: Timestamp(millisecondsSince1970: 1_700_000_000_000)
        )
        try harness.storage.createToken(token)
        let epoch = try harness.storage.epoch()
        try harness.storage.close()
        // Back to v6: no league grants, no catalog.
        try PostgresTestServer.execute("ALTER TABLE tokens DROP COLUMN leagues", in: database)
        try PostgresTestServer.execute("DROP TABLE goald_leagues", in: database)
        try PostgresTestServer.execute("DELETE FROM goald_schema WHERE version >= 7", in: database)

        try harness.reopen()
        let store = try home(harness)
        #expect(try store.epoch() == epoch)
        let league = try store.recover()
        #expect(league.head == 2 && league.headDigest == driver.digest && league.state == driver.state)
        #expect(try store.tokens() == [token])
        #expect(try store.leagues().map(\.slug) == [.default])
        try store.createLeague(try info("after", "After"))
        #expect(try store.leagues().count == 2)
        #expect(try store.epoch() == epoch)
    }

    @Test("a league's schema of an older version is upgraded when the league is opened, its league kept")
    func leagueSchemaUpgradesOnOpen() throws {
        let harness = try StoreHarness(.postgres)
        let database = try #require(harness.postgresDatabase)
        let store = try home(harness)
        let slug = try LeagueSlug(validating: "old-one")
        try store.createLeague(try info(slug.rawValue, "Old"))
        var driver = LeagueDriver()
        driver.mutate(.createPlayer(id: PlayerID(), name: "ada"), by: .alpha)
        let league = try store.openLeagueStore(slug)
        try league.append(driver.takeBatch())
        let epoch = try league.epoch()
        try league.close()
        for statement in [
            "ALTER TABLE goald_league_old_one.tokens DROP COLUMN leagues",
            "DROP TABLE goald_league_old_one.goald_leagues",
            "DELETE FROM goald_league_old_one.goald_schema WHERE version >= 7",
        ] {
            try PostgresTestServer.execute(statement, in: database)
        }

        let reopened = try store.openLeagueStore(slug)
        defer { try? reopened.close() }  // cleanup only
        #expect(try reopened.epoch() == epoch)
        #expect(try reopened.recover().headDigest == driver.digest)
        try PostgresTestServer.execute("SELECT leagues FROM goald_league_old_one.tokens", in: database)
        #expect(try store.logBounds().head == 0, "the default league's tables were not touched")
    }
}
