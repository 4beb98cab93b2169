import ArgumentParser
import Foundation
import GoalModel
import GoalStore
import GoalTestSlots
import Testing

@testable import goald

/// `goald backup` and `goald restore` with several leagues, run in process against a temporary state directory:
/// every league goes into the backup and comes back from it, and the output says so league by league.
@Suite("goald backup and restore of every league", .slotted)
struct BackupSetCommandTests {
    private func run<Command: GoaldRunnable>(
        _ type: Command.Type,
        _ arguments: [String],
        in directory: TemporaryDirectory
    ) async throws -> String {
        let command = try #require(try Goald.parseAsRoot(arguments) as? Command)
        let output = OutputCapture()
        let context = output.context(environment: ["HOME": directory.path], workingDirectory: directory.path)
        try await command.run(in: context)
        return output.text
    }

    /// Runs `body` on the state's home database and closes it.
    private func withHome<T>(_ directory: TemporaryDirectory, _ body: (SQLiteLeagueStorage) throws -> T) throws -> T {
        let home = try SQLiteLeagueStorage(path: directory.file("state/goald.sqlite"))
        defer { try? home.close() }  // cleanup only: the body's reads and writes are done
        return try body(home)
    }

    /// Runs `body` on a league's own store and closes it.
    private func withLeague<T>(
        _ slug: LeagueSlug,
        _ directory: TemporaryDirectory,
        _ body: (any LeagueStorage) throws -> T
    ) throws -> T {
        try withHome(directory) { home in
            let league = try home.openLeague(slug)
            defer { try? league.close() }  // cleanup only: the body's reads and writes are done
            return try body(league)
        }
    }

    @Test("backup prints each league's summary after the default one's; restore brings the office back, new epoch")
    func backupAndRestoreTwoLeagues() async throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.file("state"), withIntermediateDirectories: true)
        let state = ["--state-dir", directory.file("state")]
        let office = try LeagueSlug(validating: "office")
        let before = try withHome(directory) { home in
            try home.createLeague(
                LeagueInfo(
                    slug: office,
                    name: PlayerName(validating: "Office"),
                    created: Timestamp(millisecondsSince1970: 1_000)
                )
            )
            try addPlayers(["Alice"], to: home)
            return try home.recover()
        }
        let officeBefore = try withLeague(office, directory) { league in
            try addPlayers(["Bob", "Carol"], to: league)
            return try league.recover()
        }

        let backup = try await run(Goald.Backup.self, ["backup", "all.backup"] + state, in: directory)
        let lines = backup.split(separator: "\n").map(String.init)
        #expect(lines.count == 8)
        #expect(lines.first == "Backed up \(directory.file("state/goald.sqlite")) to \(directory.file("all.backup")):")
        #expect(lines[4] == "Backed up league office to \(directory.file("all.backup.leagues/office.sqlite")):")
        #expect(lines[5] == "  head revision 2, digest \(officeBefore.headDigest)")
        #expect(lines[6] == "  2 players, 0 matches, 1 client instances")
        #expect(lines[7] == "  epoch \(officeBefore.epoch)")

        // Both leagues move on; then the backup replaces them (goald is stopped: nothing holds the state open).
        try withHome(directory) { home in try addPlayers(["Dave"], to: home) }
        try withLeague(office, directory) { league in try addPlayers(["Erin"], to: league) }
        let restored = try await run(Goald.Restore.self, ["restore", "all.backup"] + state, in: directory)

        let home = try withHome(directory) { try $0.recover() }
        let officeAfter = try withLeague(office, directory) { try $0.recover() }
        #expect(home.state == before.state && home.epoch != before.epoch)
        #expect(officeAfter.state == officeBefore.state && officeAfter.head == 2)
        #expect(officeAfter.epoch != officeBefore.epoch)
        #expect(
            restored.contains(
                "Restored \(directory.file("all.backup.leagues/office.sqlite")) into "
                    + "\(directory.file("state/leagues/office.sqlite")):"
            )
        )
        #expect(restored.contains("New epoch \(home.epoch) (was \(before.epoch))."))
        #expect(restored.contains("New epoch \(officeAfter.epoch) (was \(officeBefore.epoch))."))
        #expect(restored.hasSuffix("resync by snapshot; start goald again."))
    }

    @Test("restore names a league file the restored catalog does not list and leaves it in place")
    func restoreReportsUnlistedLeagueFiles() async throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.file("state"), withIntermediateDirectories: true)
        let state = ["--state-dir", directory.file("state")]
        try withHome(directory) { home in try addPlayers(["Alice"], to: home) }
        let backup = try await run(Goald.Backup.self, ["backup", "one.backup"] + state, in: directory)
        #expect(backup.split(separator: "\n").count == 4)
        #expect(!FileManager.default.fileExists(atPath: directory.file("one.backup.leagues")))
        try withHome(directory) { home in
            try home.createLeague(
                LeagueInfo(
                    slug: try LeagueSlug(validating: "later"),
                    name: PlayerName(validating: "Later"),
                    created: Timestamp(millisecondsSince1970: 1_000)
                )
            )
        }

        let restored = try await run(Goald.Restore.self, ["restore", "one.backup"] + state, in: directory)
        let path = directory.file("state/leagues/later.sqlite")
        #expect(restored.contains("Left in place, not served: \(path) (the restored catalog does not list it;"))
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(try withHome(directory) { try $0.leagues().map(\.slug) } == [.default])
    }
}
