import Foundation
import GoalModel
import GoalStore
import GoalTestSlots
import GoalTestSupport
import Testing

/// goal-client's persisted state (issue 16, point 5): one client instance across scripted runs, the saved league
/// shown when the server is down, edits queued while it is down and sent once by the next run.
@Suite("goal-client offline: saved league, queued edits, one client instance", .serialized, .slotted)
struct OfflineCommandTests {
    @Test("two scripted commands in a row make one client record on the server, not two")
    func oneInstanceAcrossRuns() async throws {
        try await withTestDaemon { daemon in
            let client = try ClientEnvironment.make(daemon, token: daemon.tokens.editor)
            #expect(try await client.run(["players", "add", "Alice"]).status == 0)
            #expect(try await client.run(["players", "add", "Bob"]).status == 0)
            #expect(try await client.run(["players", "list"]).status == 0)
            try await daemon.waitForMetric("goald_client_records", atLeast: 1)
            #expect(daemon.metric("goald_client_records") == 1)
            #expect(try daemon.storage.recover().state.clientRecordCount == 1)
        }
    }

    @Test("server stopped: players list prints the saved league and one offline line; no saved league: exit 3")
    func readsWhileOffline() async throws {
        try await withOfflineLeague { league in
            let online = try await league.client.run(["players", "list"])
            #expect(online.status == 0, "\(online.stderr)")
            await league.stop()

            let offline = try await league.client.run(["players", "list"])
            #expect(offline.status == 0, "\(offline.stderr)")
            #expect(offline.stdout == online.stdout)
            let notice = offline.stderr.split(separator: "\n")
            #expect(notice.count == 1, "\(offline.stderr)")
            #expect(
                notice.first?.hasPrefix("goal-client: offline: showing the league as of r3, last synced 20") == true
            )
            #expect(offline.stderr.contains("UTC (cannot reach wss://localhost:\(league.port))"))
            let json = try await league.client.run(["rankings", "--json"])
            #expect(json.status == 0)
            #expect(try jsonArray(json.stdout).map { $0["name"] as? String } == ["Alice", "Bob"])

            let fresh = try ClientEnvironment.make(league.daemon, token: league.daemon.tokens.editor)
            let nothing = try await fresh.run(["players", "list"])
            #expect(nothing.status == 3, "no saved league: the connection error stands")
            #expect(nothing.stdout.isEmpty)
        }
    }

    @Test("matches score while the server is down is queued (exit 6); the next run sends it, applied once")
    func queuedScoreIsSentOnce() async throws {
        try await withOfflineLeague { league in
            await league.stop()
            let queued = try await league.client.run(["matches", "score", league.match, "home"])
            #expect(queued.status == 6, "\(queued.stderr)")
            #expect(queued.stderr.contains("edit queued as mutation"), "\(queued.stderr)")
            #expect(queued.stderr.contains("the next goal-client run that connects sends it"))

            try await league.restart()
            let next = try await league.client.run(["matches", "list"])
            #expect(next.status == 0, "\(next.stderr)")
            #expect(next.stderr.contains("queued edit"), "\(next.stderr)")
            #expect(
                next.stderr.contains("score home +1, match \(league.match) (Alice vs Bob)): committed at r4"),
                "\(next.stderr)"
            )
            #expect(next.lines.last?.contains("1 : 0") == true, "\(next.stdout)")
            let again = try await league.client.run(["matches", "list"])
            #expect(again.stderr.isEmpty, "sent once, reported once: \(again.stderr)")
            #expect(again.stdout == next.stdout)

            let durable = try league.daemon.storage.recover()
            #expect(durable.head == 4, "applied exactly once")
            #expect(durable.state.clientRecordCount == 1, "every run used the same client instance")
            let matches = try jsonArray(try await league.client.run(["matches", "list", "--json"]).stdout)
            #expect(matches.map { $0["home_goals"] as? Int } == [1])
        }
    }

    @Test("a queued edit the server refuses later is reported with names, not ids (issue 35 point 5)")
    func queuedRefusalNamesPlayers() async throws {
        try await withOfflineLeague { league in
            await league.stop()
            let queued = try await league.client.run(["matches", "add", "--home", "Alice", "--away", "Alice"])
            #expect(queued.status == 6, "\(queued.stderr)")
            try await league.restart()
            let next = try await league.client.run(["players", "list"])
            #expect(next.status == 0, "\(next.stderr)")
            let alice = try #require(next.lines.first { $0.hasSuffix("Alice") }?.prefix(8))
            #expect(next.stderr.contains(" (Alice vs Alice)): refused (player_on_both_sides): "), "\(next.stderr)")
            #expect(next.stderr.contains("player \"Alice\" cannot play on both sides"), "\(next.stderr)")
            #expect(!next.stderr.contains(String(alice)), "an id in: \(next.stderr)")
        }
    }
}

/// A daemon over a SQLite file that a test can stop and start again on the same port, with Alice, Bob and one
/// match (r3) added through goal-client (so its saved league is at r3). The port is reserved (`PortReservation`):
/// while the daemon is stopped it refuses connections, since no other test's daemon can be given it.
final class OfflineLeague: @unchecked Sendable {
    // @unchecked Sendable: used by one test task at a time (serialized suite); `daemon` changes only in
    // `stop`/`restart`, which the test awaits.
    let path: String
    let reservation: PortReservation
    let client: ClientEnvironment
    let match: String
    private(set) var daemon: TestDaemon
    private(set) var running = true

    init(path: String, reservation: PortReservation, daemon: TestDaemon, client: ClientEnvironment, match: String) {
        self.path = path
        self.reservation = reservation
        self.daemon = daemon
        self.client = client
        self.match = match
    }

    var port: Int { reservation.port }

    /// Stops the daemon. Its port refuses connections as soon as this returns: `stop()` returns after the
    /// listening socket is closed, and child processes inherit no descriptor of this process (`ChildProcess`).
    func stop() async {
        guard running else { return }
        running = false
        await daemon.stop()
    }

    func restart() async throws {
        daemon = try await TestDaemon.start(databaseAt: path, on: reservation)
        running = true
    }
}

func withOfflineLeague(_ body: (OfflineLeague) async throws -> Void) async throws {
    let directory = try TestCertificates.makeTemporaryDirectory(prefix: "goal-offline")
    defer { try? FileManager.default.removeItem(atPath: directory) }  // best effort: a temporary directory
    let path = directory + "/league.sqlite"
    let reservation = try PortReservation()
    let daemon = try await TestDaemon.start(databaseAt: path, on: reservation)
    let league: OfflineLeague
    do {
        let client = try ClientEnvironment.make(daemon, token: daemon.tokens.editor)
        for name in ["Alice", "Bob"] {
            let added = try await client.run(["players", "add", name])
            #expect(added.status == 0, "\(added.stderr)")
        }
        let added = try await client.run(["matches", "add", "--home", "Alice", "--away", "Bob", "--json"])
        #expect(added.status == 0, "\(added.stderr)")
        let match = try #require(try jsonObject(added.stdout)["match_id"] as? String)
        league = OfflineLeague(
            path: path,
            reservation: reservation,
            daemon: daemon,
            client: client,
            match: String(match.prefix(8))
        )
    } catch {
        await daemon.stop()
        throw error
    }
    do {
        try await body(league)
        await league.stop()
    } catch {
        await league.stop()
        throw error
    }
}
