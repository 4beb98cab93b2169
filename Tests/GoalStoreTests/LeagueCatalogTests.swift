import Foundation
import GoalModel
import GoalStore
import GoalTestSlots
import Testing

/// The league catalog of the SQLite and in-memory stores (`LeagueCatalog`): listing, creating, renaming, deleting
/// and opening leagues, their errors, and each league's data isolated from the others'. The PostgreSQL catalog is
/// tested with its store.
@Suite("League catalog", .slotted)
struct LeagueCatalogTests {
    static let kinds: [StorageKind] = [.memory, .sqlite]

    private func catalog(_ harness: StoreHarness) throws -> any LeagueCatalog & LeagueStorage {
        try #require(harness.storage as? any LeagueCatalog & LeagueStorage)
    }

    private func info(_ slug: String, _ name: String, at millis: Int64 = 1_000) throws -> LeagueInfo {
        LeagueInfo(
            slug: try LeagueSlug(validating: slug),
            name: try PlayerName(validating: name),
            created: Timestamp(millisecondsSince1970: millis)
        )
    }

    @Test("a new store lists only the default league, by its default name", arguments: kinds)
    func defaultOnly(kind: StorageKind) throws {
        let harness = try StoreHarness(kind)
        let leagues = try catalog(harness).leagues()
        #expect(leagues.map(\.slug) == [.default])
        #expect(leagues.first?.name.value == LeagueInfo.defaultName)
        #expect(try catalog(harness).league(.default) == leagues.first)
        #expect(try catalog(harness).league(LeagueSlug(validating: "office")) == nil)
    }

    @Test("create, list (default first, then by slug), rename and reopen round trip", arguments: kinds)
    func roundTrip(kind: StorageKind) throws {
        let harness = try StoreHarness(kind)
        let zeta = try info("zeta", "Zeta site", at: 2_000)
        let aTeam = try info("a-team", "A team", at: 3_000)
        try catalog(harness).createLeague(zeta)
        try catalog(harness).createLeague(aTeam)
        #expect(try catalog(harness).leagues().map(\.slug.rawValue) == ["default", "a-team", "zeta"])
        #expect(try catalog(harness).league(zeta.slug) == zeta)

        let renamed = try catalog(harness).renameLeague(zeta.slug, to: PlayerName(validating: "  Zürich  "))
        #expect(
            renamed == LeagueInfo(slug: zeta.slug, name: try PlayerName(validating: "Zürich"), created: zeta.created)
        )
        let office = try catalog(harness).renameLeague(.default, to: PlayerName(validating: "Office"))
        #expect(office.name.value == "Office")

        try harness.reopen()
        let leagues = try catalog(harness).leagues()
        #expect(leagues.map(\.name.value) == ["Office", "A team", "Zürich"])
        #expect(leagues.dropFirst().map(\.created) == [aTeam.created, zeta.created])
        #expect(try catalog(harness).league(aTeam.slug) == aTeam)
    }

    @Test("errors: an existing slug, the default league, unknown slugs", arguments: kinds)
    func errors(kind: StorageKind) throws {
        let harness = try StoreHarness(kind)
        let store = try catalog(harness)
        let office = try info("office", "Office")
        let unknown = try LeagueSlug(validating: "nowhere")
        try store.createLeague(office)

        func code(_ body: () throws -> Void) throws -> StorageError.Code {
            try #require(throws: StorageError.self) { try body() }.code
        }
        #expect(try code { try store.createLeague(try info("office", "Other")) } == .leagueExists)
        #expect(try code { try store.createLeague(try info("default", "Again")) } == .defaultLeague)
        #expect(try code { try store.deleteLeague(.default) } == .defaultLeague)
        #expect(try code { _ = try store.openLeague(.default) } == .defaultLeague)
        #expect(try code { try store.deleteLeague(unknown) } == .leagueNotFound)
        #expect(try code { _ = try store.openLeague(unknown) } == .leagueNotFound)
        #expect(try code { _ = try store.renameLeague(unknown, to: PlayerName(validating: "X")) } == .leagueNotFound)
        #expect(try store.league(office.slug)?.name.value == "Office")  // the refused create changed nothing
    }

    @Test("each league's data, epoch and tokens are its own; the default league's stay put", arguments: kinds)
    func isolation(kind: StorageKind) throws {
        let harness = try StoreHarness(kind)
        var home = LeagueDriver()
        home.mutate(.createPlayer(id: PlayerID(), name: "home player"), by: .alpha)
        try harness.storage.append(home.takeBatch())
        let homeEpoch = try harness.storage.epoch()
        let homeBounds = try harness.storage.logBounds()

        let office = try info("office", "Office")
        let site = try info("site", "Site")
        try catalog(harness).createLeague(office)
        try catalog(harness).createLeague(site)
        let officeStore = try catalog(harness).openLeague(office.slug)
        var driver = LeagueDriver()
        for name in ["ana", "ben", "cem"] { driver.mutate(.createPlayer(id: PlayerID(), name: name), by: .alpha) }
        try officeStore.append(driver.takeBatch())
        let officeEpoch = try officeStore.epoch()
        try officeStore.close()

        let siteStore = try catalog(harness).openLeague(site.slug)
        #expect(try siteStore.recover().head == 0)
        #expect(try siteStore.recover().state.allPlayers.isEmpty)
        #expect(try siteStore.epoch() != officeEpoch)
        try siteStore.close()

        try harness.reopen()
        #expect(try harness.storage.epoch() == homeEpoch)
        #expect(try harness.storage.logBounds() == homeBounds)
        #expect(try harness.storage.recover().state.allPlayers.map(\.name) == ["home player"])
        #expect(homeEpoch != officeEpoch)

        let reopened = try catalog(harness).openLeague(office.slug)  // a handle closed before leaves the data
        defer { try? reopened.close() }  // cleanup only
        let league = try reopened.recover()
        #expect(league.head == 3 && league.headDigest == driver.digest && league.epoch == officeEpoch)
        #expect(Set(league.state.allPlayers.map(\.name)) == ["ana", "ben", "cem"])
        #expect(try reopened.backlog(after: 0, upTo: 3, limit: 10).map(\.revision) == [1, 2, 3])
    }

    @Test("a deleted league is gone; its slug makes a new, empty league with a new epoch", arguments: kinds)
    func deleteAndRecreate(kind: StorageKind) throws {
        let harness = try StoreHarness(kind)
        let office = try info("office", "Office")
        try catalog(harness).createLeague(office)
        let store = try catalog(harness).openLeague(office.slug)
        var driver = LeagueDriver()
        driver.mutate(.createPlayer(id: PlayerID(), name: "gone"), by: .alpha)
        try store.append(driver.takeBatch())
        let oldEpoch = try store.epoch()
        try store.close()

        try catalog(harness).deleteLeague(office.slug)
        #expect(try catalog(harness).league(office.slug) == nil)
        #expect(try catalog(harness).leagues().map(\.slug) == [.default])
        let reopened = try #require(throws: StorageError.self) { _ = try catalog(harness).openLeague(office.slug) }
        #expect(reopened.code == .leagueNotFound)

        try catalog(harness).createLeague(office)
        let fresh = try catalog(harness).openLeague(office.slug)
        defer { try? fresh.close() }  // cleanup only
        #expect(try fresh.recover().head == 0)
        #expect(try fresh.recover().state.allPlayers.isEmpty)
        #expect(try fresh.epoch() != oldEpoch)
    }

    @Test("a closed league store refuses calls, naming them; the next open of the league works", arguments: kinds)
    func closedHandle(kind: StorageKind) throws {
        let harness = try StoreHarness(kind)
        let office = try info("office", "Office")
        try catalog(harness).createLeague(office)
        let first = try catalog(harness).openLeague(office.slug)
        let second = try catalog(harness).openLeague(office.slug)
        defer { try? second.close() }  // cleanup only
        var driver = LeagueDriver()
        driver.mutate(.createPlayer(id: PlayerID(), name: "ana"), by: .alpha)
        try first.append(driver.takeBatch())
        try first.close()
        let refused = try #require(throws: StorageError.self) { _ = try first.recover() }
        #expect(refused.code == .closed && refused.description.contains("recover()"))
        #expect(try second.recover().head == 1)
        #expect(try harness.storage.recover().head == 0)
    }

    @Test("tokens keep their league grants; a token without grants is of every league", arguments: kinds)
    func tokenGrants(kind: StorageKind) throws {
        let harness = try StoreHarness(kind)
        let office = try LeagueSlug(validating: "office")
        let home = try LeagueSlug(validating: "home")
        let scoped = StoredToken(
            name: "scoped",
            role: .viewer,
            secretHash: testHash(1),
            created: Timestamp(millisecondsSince1970: 10),
            leagues: [office: .admin, home: .viewer]
        )
        let everywhere = StoredToken(
            name: "everywhere",
            role: .editor,
            secretHash: testHash(2),
            created: Timestamp(millisecondsSince1970: 20)
        )
        try harness.storage.createToken(scoped)
        try harness.storage.createToken(everywhere)
        try harness.reopen()

        let stored = try #require(try harness.storage.token(secretHash: testHash(1)))
        #expect(stored == scoped)
        #expect(stored.leagues == [office: .admin, home: .viewer] && stored.role == .admin)
        #expect(stored.role(in: office) == .admin && stored.role(in: home) == .viewer)
        #expect(stored.role(in: .default) == nil && !stored.isOperator)
        #expect(try harness.storage.tokens() == [scoped, everywhere])
        let revoked = try harness.storage.revokeToken(named: "scoped", at: Timestamp(millisecondsSince1970: 30))
        #expect(revoked.leagues == scoped.leagues)
        let all = try #require(try harness.storage.token(secretHash: testHash(2)))
        #expect(all.leagues.isEmpty && all.role(in: office) == .editor && all.role(in: .default) == .editor)
    }
}
