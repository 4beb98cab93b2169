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
            let effective = try await context.configuration(state: state)
            if let postgres = effective.postgres {
                throw CommandFailure(
                    "goald backup copies the SQLite store; the league is in PostgreSQL (\(postgres)): back it up "
                        + "with pg_dump"
                )
            }
            let configuration = effective.server
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
            let effective = try await context.configuration(state: state)
            if let postgres = effective.postgres {
                throw CommandFailure(
                    "goald restore replaces the SQLite store; the league is in PostgreSQL (\(postgres)): restore it "
                        + "with pg_restore"
                )
            }
            let configuration = effective.server
            let source = ConfigurationLoader.absolutePath(file, in: context.workingDirectory)
            try OwnerOnlyFile.createDirectory(configuration.stateDirectory)
            let lock = try StateDirectoryLock.acquire(directory: configuration.stateDirectory)
            defer { lock.release() }
            let previous =
                FileManager.default.fileExists(atPath: configuration.databasePath)
                ? (try? SQLiteLeagueStorage.validateBackup(at: configuration.databasePath))?.epoch : nil
            let summary = try SQLiteLeagueStorage.restore(backupAt: source, into: configuration.databasePath)
            context.output("Restored \(source) into \(configuration.databasePath):")
            context.output(BackupDescription.lines(summary).map { "  " + $0 }.joined(separator: "\n"))
            context.output("New epoch \(summary.epoch)" + (previous.map { " (was \($0))" } ?? "") + ".")
            context.output("Clients that reconnect see the new epoch and resync by snapshot; start goald again.")
        }
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
