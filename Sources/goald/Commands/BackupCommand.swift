import ArgumentParser
import Foundation
import GoalServer
import GoalStore

extension Goald {
    /// `goald backup FILE`: a consistent copy (`VACUUM INTO`), safe while the daemon runs.
    struct Backup: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a consistent copy of the database to FILE (safe while goald runs).",
            discussion: "FILE must not exist yet; it is created with mode 0600 and checked after writing."
        )

        @OptionGroup var state: StateOptions

        @Argument(help: "Where to write the backup (a new file).")
        var file: String

        func run() async throws { try await run(in: .live()) }

        func run(in context: CommandContext) async throws {
            let configuration = try await context.configuration(state: state).sqliteOnly("backup", "pg_dump")
            let destination = ConfigurationLoader.absolutePath(file, in: context.workingDirectory)
            try StoreAccess.withStorage(configuration, create: false) { storage in try storage.backup(to: destination) }
            let summary = try SQLiteLeagueStorage.validateBackup(at: destination)
            context.output("Backed up \(configuration.databasePath) to \(destination):")
            context.output(BackupDescription.lines(summary).map { "  " + $0 }.joined(separator: "\n"))
        }
    }

    /// `goald restore FILE`: replaces the database with a backup and rotates the epoch. The daemon must be stopped.
    struct Restore: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replace the database with a backup and rotate the epoch (stop goald first).",
            discussion: "The backup is checked first (integrity, schema, league rules). Clients that resume with the "
                + "old epoch get a fresh snapshot, so no client keeps revisions of the replaced history."
        )

        @OptionGroup var state: StateOptions

        @Argument(help: "The backup file to restore.")
        var file: String

        func run() async throws { try await run(in: .live()) }

        func run(in context: CommandContext) async throws {
            let configuration = try await context.configuration(state: state).sqliteOnly("restore", "pg_restore")
            let source = ConfigurationLoader.absolutePath(file, in: context.workingDirectory)
            try OwnerOnlyFile.createDirectory(configuration.stateDirectory)
            let lock = try StateDirectoryLock.acquire(directory: configuration.stateDirectory)
            defer { lock.release() }
            let previous =
                FileManager.default.fileExists(atPath: configuration.databasePath)
                // A database being replaced may be unreadable (that is often why it is restored): its epoch is then unknown.
                ? (try? SQLiteLeagueStorage.validateBackup(at: configuration.databasePath))?.epoch : nil
            let summary = try SQLiteLeagueStorage.restore(backupAt: source, into: configuration.databasePath)
            context.output("Restored \(source) into \(configuration.databasePath):")
            context.output(BackupDescription.lines(summary).map { "  " + $0 }.joined(separator: "\n"))
            context.output("New epoch \(summary.epoch)" + (previous.map { " (was \($0))" } ?? "") + ".")
            context.output("Clients that reconnect see the new epoch and resync by snapshot; start goald again.")
        }
    }
}

extension EffectiveConfiguration {
    /// The server configuration, for a command that works on the SQLite file only.
    /// - Throws: `CommandFailure` naming the PostgreSQL tool to use instead when the store is PostgreSQL.
    func sqliteOnly(_ command: String, _ postgresTool: String) throws -> ServerConfiguration {
        if let postgres {
            throw CommandFailure(
                "goald \(command) works on the SQLite store; the league is in PostgreSQL (\(postgres)): use "
                    + postgresTool
            )
        }
        return server
    }
}

/// A backup's summary as text.
enum BackupDescription {
    static func lines(_ summary: SQLiteLeagueStorage.BackupSummary) -> [String] {
        [
            "head revision \(summary.head), digest \(summary.headDigest)",
            "\(summary.players) players, \(summary.matches) matches, \(summary.clientInstances) client instances",
            "epoch \(summary.epoch)",
        ]
    }
}

/// A command failure with a message for the operator (exit status 1).
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
