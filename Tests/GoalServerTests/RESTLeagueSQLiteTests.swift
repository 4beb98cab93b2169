import Foundation
import GoalModel
import GoalStore
import GoalTestSlots
import GoalTestSupport
import NIOHTTP1
import Testing

/// The league routes of the HTTP API on goald's SQLite store (one file per league, `leagues/<id>.sqlite` beside the
/// home database): a created league is a file that a write lands in and a deletion removes; a league whose file
/// cannot be opened (its file is missing) is 503 `store_unavailable` (the client may retry), not 404 and not a
/// stopped daemon.
@Suite("HTTP API: leagues on the SQLite store", .slotted)
struct RESTLeagueSQLiteTests {
    @Test("create, write, read and delete a league on SQLite: its own file, gone after DELETE")
    func roundTripOnSQLite() async throws {
        let directory = try TestCertificates.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }  // a leftover temp dir harms no one
        let file = directory + "/leagues/alpha.sqlite"
        try await withTestDaemon(storage: try SQLiteLeagueStorage(path: directory + "/goald.sqlite")) { daemon in
            try await RESTLeagueSupport.createLeagues(daemon, [RESTLeagueSupport.alpha])
            #expect(FileManager.default.fileExists(atPath: file))
            let api = RESTTestClient(connector: try daemon.connector(), token: daemon.tokens.admin)
            #expect(try await api.call(.POST, "leagues/alpha/players", json: #"{"name":"Ada"}"#).status == 201)
            let players = try RESTTestClient.array(try await api.call(.GET, "leagues/alpha/players"))
            #expect(players.map { $0["name"] as? String } == ["Ada"])
            #expect(try await api.call(.GET, "players").bodyText == "[]")
            #expect(try await api.call(.DELETE, "leagues/alpha").status == 204)
            #expect(!FileManager.default.fileExists(atPath: file), "the league's data is gone")
            #expect(try await api.call(.GET, "leagues/alpha/players").status == 404)
        }
    }

    @Test("a league whose store cannot be opened is 503 store_unavailable; the daemon and other leagues go on")
    func unreadableLeagueIsUnavailable() async throws {
        let directory = try TestCertificates.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }  // a leftover temp dir harms no one
        try await withTestDaemon(storage: try SQLiteLeagueStorage(path: directory + "/goald.sqlite")) { daemon in
            try await RESTLeagueSupport.createLeagues(daemon, [RESTLeagueSupport.alpha, RESTLeagueSupport.beta])
            // Not loaded yet (nobody used it): its database goes missing, so opening it fails (`file_access`).
            for suffix in ["", "-wal", "-shm"] {
                let file = directory + "/leagues/alpha.sqlite" + suffix
                if FileManager.default.fileExists(atPath: file) { try FileManager.default.removeItem(atPath: file) }
            }
            let api = RESTTestClient(connector: try daemon.connector(), token: daemon.tokens.editor)
            let refused = try await api.call(.GET, "leagues/alpha/players")
            #expect(refused.status == 503)
            #expect(try RESTLeagueSupport.code(refused) == "store_unavailable")
            #expect(try await api.call(.POST, "leagues/beta/players", json: #"{"name":"Bo"}"#).status == 201)
            #expect(try await api.call(.GET, "players").status == 200)
        }
    }
}
