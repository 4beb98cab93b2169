import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the SQLite catalog keeps the leagues other than the default one, and the file-system steps around them:
/// `<directory of the home database>/leagues/<slug>.sqlite`, the directory 0700 and each file 0600 (like the home
/// database; SQLite gives the -wal and -shm files the database file's mode).
///
/// Stateless; every call is blocking file-system IO.
enum SQLiteLeagueFiles {
    /// The leagues' directory beside the home database at `homePath`.
    static func directory(home homePath: String) -> String {
        URL(fileURLWithPath: homePath).deletingLastPathComponent().appendingPathComponent("leagues").path
    }

    /// The database of `slug` in `directory`. A slug needs no escaping in a file name (`LeagueSlug`'s alphabet).
    static func database(_ slug: String, in directory: String) -> String { directory + "/" + slug + ".sqlite" }

    /// The files SQLite may keep for the database at `path`.
    static func all(_ path: String) -> [String] { [path, path + "-wal", path + "-shm", path + "-journal"] }

    /// Makes the directory (mode 0700) unless it exists.
    static func createDirectory(_ path: String) throws(StorageError) {
        guard mkdir(path, 0o700) == 0 || errno == EEXIST else {
            throw .fileAccess(path: path, detail: String(cString: strerror(errno)))
        }
    }

    /// Removes a database and its -wal, -shm and -journal files (those that exist).
    static func remove(_ path: String) throws(StorageError) {
        for file in all(path) { try DatabaseFile.remove(file) }
    }

    /// Makes the directory's entries (a file created or removed in it) durable.
    static func syncDirectory(_ path: String) throws(StorageError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .fileAccess(path: path, detail: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw .fileAccess(path: path, detail: String(cString: strerror(errno))) }
    }
}
