import GoalModel
import GoalStore
import GoalTestSlots
import GoalTestSupport
import Testing

@testable import GoalPostgres

/// Two goald nodes (two home stores) on one database: a league's commits and presence reach the other node's store
/// of the same league, never its store of another league.
@Suite(
    "PostgreSQL store: leagues across nodes",
    .enabled(if: PostgresTestServer.isEnabled, Comment(rawValue: PostgresTestServer.skipMessage)),
    .slotted
)
struct PostgresLeagueNodesTests {
    private struct Nodes {
        let harness: StoreHarness
        let first: PostgresLeagueStorage
        let second: PostgresLeagueStorage
        let alpha: LeagueSlug
        let beta: LeagueSlug

        init() throws {
            harness = try StoreHarness(.postgres)
            first = try #require(harness.storage as? PostgresLeagueStorage)
            second = try PostgresLeagueStorage(configuration: try #require(harness.postgresDatabase))
            alpha = try LeagueSlug(validating: "alpha")
            beta = try LeagueSlug(validating: "beta-two")
            for slug in [alpha, beta] {
                try first.createLeague(
                    LeagueInfo(
                        slug: slug,
                        name: try PlayerName(validating: slug.rawValue),
                        created: .init(millisecondsSince1970: 0)
                    )
                )
            }
        }
    }

    @Test("a commit in league A wakes the other node's store of A with its batch; its store of B hears only B's")
    func commitsReachTheirLeagueOnly() async throws {
        let nodes = try Nodes()
        defer { try? nodes.second.close() }  // cleanup only
        let alphaOnFirst = try nodes.first.openLeagueStore(nodes.alpha)
        defer { try? alphaOnFirst.close() }  // cleanup only
        let betaOnFirst = try nodes.first.openLeagueStore(nodes.beta)
        defer { try? betaOnFirst.close() }  // cleanup only
        let alphaOnSecond = try nodes.second.openLeagueStore(nodes.alpha)
        defer { try? alphaOnSecond.close() }  // cleanup only
        let betaOnSecond = try nodes.second.openLeagueStore(nodes.beta)
        defer { try? betaOnSecond.close() }  // cleanup only

        let heardAlpha = HeardNotifications<HeadNotice>()
        let heardBeta = HeardNotifications<HeadNotice>()
        let heardDefault = HeardNotifications<HeadNotice>()
        alphaOnSecond.watchHead(heardAlpha.record)
        betaOnSecond.watchHead(heardBeta.record)
        nodes.second.watchHead(heardDefault.record)
        // Generous: the listeners are tasks on the cooperative pool, which busy parallel tests share.
        try await pollUntil("the second node listens", timeout: .seconds(60)) {
            heardAlpha.listening && heardBeta.listening && heardDefault.listening
        }

        var inAlpha = LeagueDriver()
        inAlpha.mutate(.createPlayer(id: PlayerID(), name: "ada"), by: .alpha)
        try alphaOnFirst.append(inAlpha.takeBatch())
        inAlpha.mutate(.createPlayer(id: PlayerID(), name: "bea"), by: .alpha)
        try alphaOnFirst.append(inAlpha.takeBatch())
        try await pollUntil("alpha's commits on the second node") { heardAlpha.payloads.count == 2 }
        let changes = try #require(heardAlpha.payloads.last?.written).changes
        #expect(changes == (try alphaOnSecond.changes(after: StoreHead(revision: 1, version: 1))))

        // PostgreSQL delivers notifications in commit order: had beta's store heard alpha's, they would come first.
        var inBeta = LeagueDriver()
        inBeta.mutate(.createPlayer(id: PlayerID(), name: "cid"), by: .beta)
        try betaOnFirst.append(inBeta.takeBatch())
        try await pollUntil("beta's commit on the second node") { !heardBeta.payloads.isEmpty }
        #expect(heardBeta.payloads.map(\.version) == [1])
        #expect(heardBeta.payloads.first?.written?.changes.commits.map(\.revision) == [1])
        var inDefault = LeagueDriver()
        inDefault.mutate(.createPlayer(id: PlayerID(), name: "dan"), by: .beta)
        try nodes.first.append(inDefault.takeBatch())
        try await pollUntil("the default league's commit on the second node") { !heardDefault.payloads.isEmpty }
        #expect(heardDefault.payloads.map(\.version) == [1], "the default league heard neither alpha nor beta")
        #expect(heardAlpha.payloads.count == 2, "alpha heard neither beta nor the default league")
    }

    @Test("presence is per league: the other node's store of the same league hears it, another league's does not")
    func presenceStaysInItsLeague() async throws {
        let nodes = try Nodes()
        defer { try? nodes.second.close() }  // cleanup only
        let alphaOnFirst = try nodes.first.openLeagueStore(nodes.alpha)
        defer { try? alphaOnFirst.close() }  // cleanup only
        let betaOnFirst = try nodes.first.openLeagueStore(nodes.beta)
        defer { try? betaOnFirst.close() }  // cleanup only
        let alphaOnSecond = try nodes.second.openLeagueStore(nodes.alpha)
        defer { try? alphaOnSecond.close() }  // cleanup only
        let betaOnSecond = try nodes.second.openLeagueStore(nodes.beta)
        defer { try? betaOnSecond.close() }  // cleanup only

        let stores = [alphaOnFirst, betaOnFirst, alphaOnSecond, betaOnSecond]
        let heard = stores.map { _ in HeardNotifications<String>() }
        for (store, ear) in zip(stores, heard) { store.listenPresence(ear.record) }
        try await pollUntil("every store listens for presence", timeout: .seconds(60)) { heard.allSatisfy(\.listening) }

        alphaOnFirst.publishPresence("alpha hello")
        try await pollUntil("alpha's presence on the second node") { heard[2].payloads.contains("alpha hello") }
        betaOnFirst.publishPresence("beta hello")
        try await pollUntil("beta's presence on the second node") { heard[3].payloads.contains("beta hello") }
        #expect(heard[3].payloads == ["beta hello"], "beta's store never heard alpha's presence")
        #expect(heard[2].payloads == ["alpha hello"])
        for store in stores { await store.stopPresence() }
    }
}
