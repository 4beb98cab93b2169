import Foundation
import GRDB
public import GoalModel

/// Restoring a backup set into a state directory: check everything, stage every copy, then swap them in.
extension SQLiteBackupSet {
    /// One database a restore replaced. Value type, `Sendable`.
    public struct Restored: Hashable, Sendable {
        /// The backup it came from; `part.summary.epoch` is the new, rotated epoch.
        public var part: Part
        /// The database it replaced (or created).
        public var target: String
        /// The replaced database's epoch, or nil when there was none or it could not be read.
        public var previousEpoch: LeagueEpoch?
    }

    /// What a restore did. Value type, `Sendable`.
    public struct Restoration: Hashable, Sendable {
        /// The default league first, then the other leagues by slug.
        public var restored: [Restored]
        /// League files in the leagues' directory that the restored catalog does not list, left in place. They
        /// are not served; the next `createLeague` of their slug replaces them.
        public var unlisted: [String]
    }

    /// Replaces the home database at `homePath` with the set's `file` and each league the set's catalog lists with
    /// its `file.leagues/<slug>.sqlite` (into `<directory of homePath>/leagues/<slug>.sqlite`), each with a new epoch,
    /// so clients that resume with an old epoch get a snapshot. The daemon must not be running.
    ///
    /// Order: validate the whole set (a missing or bad file fails here, before anything is touched); stage a
    /// copy of each next to its target (a failure removes the staged copies and leaves the state as it was);
    /// then rename the copies over their targets, the leagues first and the home database last.
    /// Threading: blocking IO on the caller's thread; nothing else may have the state's databases open.
    /// - Throws: What `validate(at:)` throws; `fileAccess` and `database` errors from staging or swapping.
    public static func restore(from file: String, into homePath: String) throws(StorageError) -> Restoration {
        let parts = try validate(at: file)
        let directory = SQLiteLeagueFiles.directory(home: homePath)
        let targets = parts.map { part in
            part.slug.isDefault ? homePath : SQLiteLeagueFiles.database(part.slug.rawValue, in: directory)
        }
        let previous = targets.map(storedEpoch(at:))
        let unlisted = try unlistedFiles(in: directory, listed: Set(parts.map(\.slug)))
        if parts.count > 1 { try SQLiteLeagueFiles.createDirectory(directory) }

        var staged: [String] = []
        var epochs: [LeagueEpoch] = []
        do {
            for (part, target) in zip(parts, targets) {
                let staging = SQLiteLeagueStorage.stagingPath(for: target)
                staged.append(staging)
                epochs.append(try SQLiteLeagueStorage.stage(backupAt: part.path, as: staging))
            }
        } catch {
            for staging in staged {
                try? SQLiteLeagueStorage.removeStaging(staging)  // best effort: the staging error is the one to report
            }
            throw error
        }
        for index in Array(parts.indices.dropFirst()) + [0] {
            try SQLiteLeagueStorage.install(staged[index], over: targets[index])
        }
        var restored: [Restored] = []
        for index in parts.indices {
            var part = parts[index]
            part.summary.epoch = epochs[index]
            restored.append(Restored(part: part, target: targets[index], previousEpoch: previous[index]))
        }
        return Restoration(restored: restored, unlisted: unlisted)
    }

    /// The `*.sqlite` files in `directory` whose league is not in `listed`, by name; none when there is no
    /// directory.
    private static func unlistedFiles(in directory: String, listed: Set<LeagueSlug>) throws(StorageError) -> [String] {
        guard DatabaseFile.exists(directory) else { return [] }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw .fileAccess(path: directory, detail: "\(error)")
        }
        let listedNames = Set(listed.map { $0.rawValue + ".sqlite" })
        return names.sorted().filter { $0.hasSuffix(".sqlite") && !listedNames.contains($0) }.map {
            directory + "/" + $0
        }
    }

    /// The epoch of the database at `path`, read without changing it; nil when there is none or it cannot be read
    /// (a database being replaced is often unreadable: that is why it is restored).
    private static func storedEpoch(at path: String) -> LeagueEpoch? {
        guard DatabaseFile.exists(path) else { return nil }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "goald.restore-epoch"
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            // Closing a read-only connection cannot lose anything; the epoch is already read.
            defer { try? queue.close() }
            return try queue.read { db in try String.fetchOne(db, sql: "SELECT epoch FROM league") }
                .map(LeagueEpoch.init(rawValue:))
        } catch {
            return nil
        }
    }
}
