import Dispatch
import GoalModel
import GoalStore
import GoalTestSlots
import GoalWire
import Logging
import NIOCore
import NIOPosix
import Prometheus
import Synchronization
import Testing

@testable import GoalServer

/// `LeagueHost` without sockets (issue 37 point 5): a league is loaded on first use and only once, held by leases,
/// unloaded once idle past its limit (its data stays in its store), never loaded again while it is being deleted,
/// and a store without a catalog has the default league only.
@Suite("the league host: load on first use, leases, idle unload, delete", .slotted)
struct LeagueHostTests {
    /// A host over an in-memory home store with the leagues `office` and `home`.
    final class Fixture: Sendable {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let threadPool = NIOThreadPool(numberOfThreads: 2)
        let home: InMemoryLeagueStorage
        let host: LeagueHost
        let office = LeagueSlug(unchecked: "office")

        init(idleSeconds: Double, catalog: Bool = true) throws {
            threadPool.start()
            home = InMemoryLeagueStorage()
            let created = Timestamp(millisecondsSince1970: 0)
            for slug in ["office", "home"] {
                try home.createLeague(
                    LeagueInfo(
                        slug: try LeagueSlug(validating: slug),
                        name: try PlayerName(validating: slug),
                        created: created
                    )
                )
            }
            let factory = LeagueRuntime.Factory(
                configuration: ServerConfiguration(stateDirectory: "/nonexistent"),
                nodeID: "node-0",
                loops: [group.next()],
                threadPool: threadPool,
                metrics: ServerMetrics(registry: PrometheusCollectorRegistry()),
                parts: DaemonParts(storage: home),
                compression: nil,
                logger: Logger(label: "test.leagues")
            )
            host = LeagueHost(
                defaultLeague: factory.make(.default, storage: home, recovered: try home.recover()) { _ in },
                catalog: catalog ? home : nil,
                factory: factory,
                idleSeconds: idleSeconds,
                logger: Logger(label: "test.leagues")
            )
        }

        func shutDown() async throws {
            await host.stopAll(code: .shuttingDown, message: "test over")
            try await threadPool.shutdownGracefully()
            try await group.shutdownGracefully()
        }
    }

    @Test("a league is loaded on first use, once, even when many ask at the same time")
    func loadsOnce() async throws {
        let fixture = try Fixture(idleSeconds: 300)
        #expect(fixture.host.loadedCount == 0, "only the default league is loaded at start")
        let host = fixture.host
        let office = fixture.office
        let loaded = Mutex<[ObjectIdentifier]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            // A store failure would leave the list short, which the expectation below reports.
            if let runtime = try? host.acquire(office) { loaded.withLock { $0.append(ObjectIdentifier(runtime)) } }
        }
        let identities = loaded.withLock { $0 }
        #expect(identities.count == 8)
        #expect(Set(identities).count == 1, "one runtime for all eight")
        #expect(host.loadedCount == 1)
        #expect(try host.acquire(.default) === host.defaultLeague)
        try await fixture.shutDown()
    }

    @Test("an unknown league is nil; a store without a catalog has only the default league")
    func unknownLeagues() async throws {
        let fixture = try Fixture(idleSeconds: 300)
        #expect(try fixture.host.acquire(LeagueSlug(validating: "nowhere")) == nil)
        try await fixture.shutDown()
        let bare = try Fixture(idleSeconds: 300, catalog: false)
        #expect(try bare.host.acquire(bare.office) == nil)
        #expect(try bare.host.acquire(.default) === bare.host.defaultLeague)
        try await bare.shutDown()
    }

    @Test("a league with a lease stays; without one it is unloaded once idle past the limit, and keeps its data")
    func idleUnload() async throws {
        let fixture = try Fixture(idleSeconds: 60)
        let host = fixture.host
        let first = try #require(try host.acquire(fixture.office))
        let start = ContinuousClock.now
        #expect(await host.unloadIdle(now: start.advanced(by: .seconds(3_600))).isEmpty, "a lease holds it")
        host.release(first)
        #expect(await host.unloadIdle(now: .now.advanced(by: .seconds(30))).isEmpty, "idle for less than 60 s")
        #expect(await host.unloadIdle(now: .now.advanced(by: .seconds(61))) == [fixture.office])
        #expect(host.loadedCount == 0)
        let again = try #require(try host.acquire(fixture.office))
        #expect(again !== first, "loaded again from its store")
        #expect(again.epoch == first.epoch, "the same league: its epoch stayed in its store")
        host.release(again)
        host.release(again)  // a second release of one lease must not free someone else's
        #expect(await host.unloadIdle(now: .now.advanced(by: .seconds(61))) == [fixture.office])
        try await fixture.shutDown()
    }

    @Test("a release of a runtime that was unloaded meanwhile leaves the newer load's leases alone")
    func staleRelease() async throws {
        let fixture = try Fixture(idleSeconds: 0)
        let host = fixture.host
        let old = try #require(try host.acquire(fixture.office))
        host.release(old)
        #expect(await host.unloadIdle() == [fixture.office])
        let fresh = try #require(try host.acquire(fixture.office))
        host.release(old)  // late: must not count against `fresh`
        #expect(await host.unloadIdle().isEmpty, "fresh's lease is still held")
        host.release(fresh)
        #expect(await host.unloadIdle() == [fixture.office])
        try await fixture.shutDown()
    }

    @Test("delete unloads the league and removes it from the catalog; the default league cannot be deleted")
    func delete() async throws {
        let fixture = try Fixture(idleSeconds: 300)
        let host = fixture.host
        _ = try #require(try host.acquire(fixture.office))
        try await host.delete(fixture.office)
        #expect(host.loadedCount == 0)
        #expect(try fixture.home.league(fixture.office) == nil)
        #expect(try host.acquire(fixture.office) == nil, "gone")
        await #expect(throws: StorageError.self) { try await host.delete(.default) }
        await #expect(throws: StorageError.self) { try await host.delete(fixture.office) }
        try await fixture.shutDown()
    }

    @Test("a league whose store failed closes its sessions internal, or unknown_league once the catalog lost it")
    func closeCodeAfterAFailure() async throws {
        let fixture = try Fixture(idleSeconds: 300)
        #expect(await fixture.host.closeAfterFailure(of: fixture.office).0 == .internalError)
        try fixture.home.deleteLeague(fixture.office)  // as another node does: the catalog row goes
        let (code, message) = await fixture.host.closeAfterFailure(of: fixture.office)
        #expect(code == .unknownLeague)
        #expect(message == "league office was deleted")
        try await fixture.shutDown()
    }
}

extension LeagueSlug {
    /// A slug the test knows to be valid.
    fileprivate init(unchecked text: String) {
        // The tests' literals are valid slugs; a typo fails the first expectation that uses it.
        self = (try? LeagueSlug(validating: text)) ?? .default
    }
}
