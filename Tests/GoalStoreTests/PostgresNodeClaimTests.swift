import Foundation
import GoalPostgres
import GoalStore
import GoalTestSlots
import GoalTestSupport
import Testing

/// Node ids on one PostgreSQL database (issue 34 point 6): a node id held by a live store is refused to another, with
/// both named; it is free again once its holder closes, and taken again by its holder after a lost connection.
@Suite(
    "PostgreSQL node id claims",
    .enabled(if: PostgresTestServer.isEnabled, Comment(rawValue: PostgresTestServer.skipMessage)),
    .slotted
)
struct PostgresNodeClaimTests {
    @Test("a node id held by a live store is refused to another, naming both; free again once the holder closes")
    func duplicateIsRefused() async throws {
        let database = try PostgresTestServer.makeDatabase()
        defer { try? PostgresTestServer.dropDatabase(database) }  // cleanup only
        let first = try PostgresLeagueStorage(configuration: database)
        defer { try? first.close() }  // closed in the test; idempotent
        let second = try PostgresLeagueStorage(configuration: database)
        defer { try? second.close() }  // cleanup only

        try await first.claimNode("east", holder: "host a, pid 1, port 7443, state /srv/a")
        #expect(first.holdsNodeClaim)
        // Another id is no conflict.
        try await second.claimNode("west", holder: "host b, pid 2, port 7444, state /srv/b")

        let third = try PostgresLeagueStorage(configuration: database)
        defer { try? third.close() }  // cleanup only
        let refusal = await #expect(throws: StorageError.self) {
            try await third.claimNode("east", holder: "host c, pid 3, port 7445, state /srv/c")
        }
        #expect(refusal?.code == .nodeIDTaken)
        let message = refusal?.description ?? ""
        #expect(message.contains("\"east\""), "\(message)")
        #expect(message.contains("host a, pid 1, port 7443, state /srv/a"), "names the holder: \(message)")
        #expect(message.contains("host c, pid 3, port 7445, state /srv/c"), "names the claimant: \(message)")
        #expect(!third.holdsNodeClaim)

        try first.close()
        let fourth = try PostgresLeagueStorage(configuration: database)
        defer { try? fourth.close() }  // cleanup only
        // The holder's session ends with its connection; the claim waits for that (at most 3 s).
        try await fourth.claimNode("east", holder: "host d, pid 4, port 7443, state /srv/a")
        #expect(fourth.holdsNodeClaim)
    }

    @Test("after its connection is cut, the holder takes its node id again, and others are refused once more")
    func holderTakesItsIdAgain() async throws {
        let database = try PostgresTestServer.makeDatabase()
        defer { try? PostgresTestServer.dropDatabase(database) }  // cleanup only
        let holder = try PostgresLeagueStorage(configuration: database)
        defer { try? holder.close() }  // cleanup only
        try await holder.claimNode("east", holder: "host a, pid 1, port 7443, state /srv/a")

        // The database ends every session (as a restart does) and refuses new ones for a moment.
        try PostgresTestServer.refuseConnections(to: database)
        try await pollUntil("the claim is seen lost", timeout: .seconds(20)) { !holder.holdsNodeClaim }
        try PostgresTestServer.allowConnections(to: database)
        try await pollUntil("the claim is taken again", timeout: .seconds(30)) { holder.holdsNodeClaim }

        let other = try PostgresLeagueStorage(configuration: database)
        defer { try? other.close() }  // cleanup only
        let refusal = await #expect(throws: StorageError.self) {
            try await other.claimNode("east", holder: "host b, pid 2, port 7444, state /srv/b")
        }
        #expect(refusal?.code == .nodeIDTaken)
    }

    @Test("a claim on an unreachable database is unavailable, not a refusal")
    func unreachableDatabase() async throws {
        let database = try PostgresTestServer.makeDatabase()
        defer { try? PostgresTestServer.dropDatabase(database) }  // cleanup only
        let storage = try PostgresLeagueStorage(configuration: database)
        defer { try? storage.close() }  // cleanup only
        try PostgresTestServer.refuseConnections(to: database)
        defer { try? PostgresTestServer.allowConnections(to: database) }  // lets the drop connect
        let error = await #expect(throws: StorageError.self) {
            try await storage.claimNode("east", holder: "host a, pid 1, port 7443, state /srv/a")
        }
        #expect(error?.code != .nodeIDTaken, "\(String(describing: error))")
        #expect(!storage.holdsNodeClaim)
    }
}
