import GoalModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Backing up the whole state: the home database and every league its catalog lists (`SQLiteBackupSet`).
extension SQLiteLeagueStorage {
    /// Writes a backup set: this (home) database to `file` with `backup(to:)`, then every league that the catalog
    /// *of that copy* lists to `file.leagues/<slug>.sqlite` (directory 0700, files 0600) the same way, so the set's
    /// catalog and files agree even when a league is created meanwhile; then validates the whole set.
    ///
    /// Safe while the daemon runs: each copy is one consistent `VACUUM INTO` from a reader connection, so no
    /// writer waits. The copies are taken one after another, so each league is consistent on its own (leagues
    /// share no state that would need one moment for all). A league deleted while the backup runs fails it.
    /// On any failure the files this call created are removed and nothing else is touched.
    /// Threading: blocking IO on the caller's thread; may run at the same time as any other call on this store.
    /// - Returns: The default league's part first, then the other leagues' by slug.
    /// - Throws: `fileAccess` when `file` or `file.leagues` exists already, or a listed league's live file is
    ///   missing; what `backup(to:)` and `SQLiteBackupSet.validate(at:)` throw.
    public func backupSet(to file: String) throws(StorageError) -> [SQLiteBackupSet.Part] {
        let directory = SQLiteBackupSet.leaguesDirectory(of: file)
        guard !DatabaseFile.exists(directory) else {
            throw .fileAccess(path: directory, detail: "it already exists; choose a new backup path")
        }
        try backup(to: file)
        var createdDirectory = false
        var written: [String] = []
        do throws(StorageError) {
            let leagues = try SQLiteBackupSet.listedLeagues(inBackup: file)
            if !leagues.isEmpty {
                try Self.createFreshDirectory(directory)
                createdDirectory = true
            }
            for slug in leagues {
                let destination = SQLiteBackupSet.path(of: slug, in: file)
                let league = try openLeagueFile(slug)
                written.append(destination)
                do throws(StorageError) {
                    try league.backup(to: destination)
                } catch {
                    // The league's store is abandoned; the backup's error is the one to report.
                    try? league.close()
                    throw error
                }
                try league.close()
            }
            return try SQLiteBackupSet.validate(at: file)
        } catch {
            // Best effort: remove what this call made; the backup's own error is the one thrown.
            for path in written.reversed() + [file] { try? DatabaseFile.remove(path) }
            if createdDirectory { rmdir(directory) }  // fails only if a stranger wrote into it: then it stays
            throw error
        }
    }

    /// Opens the live file of a league other than the default one for a backup; a missing file is an error,
    /// never a new empty league.
    private func openLeagueFile(_ slug: LeagueSlug) throws(StorageError) -> SQLiteLeagueStorage {
        let path = leaguePath(slug)
        guard DatabaseFile.exists(path) else {
            throw .fileAccess(path: path, detail: "league \(slug)'s database is missing, so it cannot be backed up")
        }
        return try SQLiteLeagueStorage(path: path, retention: retention)
    }

    /// Makes a new directory with mode 0700; an existing one is an error (a backup never writes into one).
    private static func createFreshDirectory(_ path: String) throws(StorageError) {
        guard mkdir(path, 0o700) == 0 else {
            throw .fileAccess(path: path, detail: String(cString: strerror(errno)))
        }
    }
}
