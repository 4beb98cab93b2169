import ArgumentParser
import Foundation
import GoalModel
import GoalServer
import GoalStore

extension Goald {
    /// `goald backup FILE`: a consistent copy (`VACUUM INTO`) of the home database to FILE and of every other league
    /// its catalog lists to FILE.leagues/<slug>.sqlite, safe while the daemon runs (`SQLiteBackupSet`).
    struct Backup: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a consistent copy of every league's database to FILE (safe while goald runs).",
            discussion: "FILE must not exist yet; it is created with mode 0600 and checked after writing. Leagues "
                + "other than the default one go to FILE.leagues/<id>.sqlite (a new directory, mode 0700)."
        )

        @OptionGroup var state: StateOptions

        @Argument(help: "Where to write the backup (a new file).")
        var file: String

        func run() async throws { try await run(in: .live()) }

        func run(in context: CommandContext) async throws {
            let configuration = try await context.configuration(state: state).sqliteOnly("backup", "pg_dump")
            let destination = ConfigurationLoader.absolutePath(file, in: context.workingDirectory)
            let parts = try StoreAccess.withStorage(configuration, create: false) { storage in
                try storage.backupSet(to: destination)
            }
            for part in parts {
                context.output(
                    part.slug.isDefault
                        ? "Backed up \(configuration.databasePath) to \(destination):"
                        : "Backed up league \(part.slug) to \(part.path):"
                )
                context.output(BackupDescription.lines(part.summary).map { "  " + $0 }.joined(separator: "\n"))
            }
        }
    }

    /// `goald restore FILE`: replaces the home database with FILE and every league FILE's catalog lists with its
    /// FILE.leagues/<slug>.sqlite, each with a rotated epoch (`SQLiteBackupSet.restore`). The daemon must be stopped.
    struct Restore: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replace every league's database with a backup and rotate the epochs (stop goald first).",
            discussion: "The whole backup is checked first (integrity, schema, league rules, a file for every league "
                + "its catalog lists). Clients that resume with an old epoch get a fresh snapshot, so no client keeps "
                + "revisions of the replaced history."
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
            let restoration = try SQLiteBackupSet.restore(from: source, into: configuration.databasePath)
            for restored in restoration.restored {
                context.output("Restored \(restored.part.path) into \(restored.target):")
                context.output(BackupDescription.lines(restored.part.summary).map { "  " + $0 }.joined(separator: "\n"))
                context.output(
                    "New epoch \(restored.part.summary.epoch)" + (restored.previousEpoch.map { " (was \($0))" } ?? "")
                        + "."
                )
            }
            for path in restoration.unlisted {
                context.output(
                    "Left in place, not served: \(path) (the restored catalog does not list it; "
                        + "goald league create replaces it)."
                )
            }
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
