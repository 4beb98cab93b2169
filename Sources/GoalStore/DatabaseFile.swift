import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// File-system steps around the database: creating it owner-only before SQLite opens it (SQLite gives the -wal
/// and -shm files the database file's mode), and the atomic swap a restore performs.
enum DatabaseFile {
    /// Creates an empty file with mode 0600 unless one exists (an empty file is an empty SQLite database).
    static func createOwnerOnly(_ path: String) throws(StorageError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            close(descriptor)
            return
        }
        let code = errno
        guard code == EEXIST else { throw .fileAccess(path: path, detail: String(cString: strerror(code))) }
    }

    /// Sets mode 0600 on an existing file.
    static func restrictToOwner(_ path: String) throws(StorageError) {
        guard chmod(path, 0o600) == 0 else {
            throw .fileAccess(path: path, detail: String(cString: strerror(errno)))
        }
    }

    /// True when a file exists at `path`.
    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Removes a file if it exists.
    static func remove(_ path: String) throws(StorageError) {
        guard unlink(path) == 0 || errno == ENOENT else {
            throw .fileAccess(path: path, detail: String(cString: strerror(errno)))
        }
    }

    /// Copies a file (replacing any file at the destination) and leaves the copy 0600 and fsynced.
    static func copy(_ source: String, to destination: String) throws(StorageError) {
        try remove(destination)
        do {
            try FileManager.default.copyItem(atPath: source, toPath: destination)
        } catch {
            throw .fileAccess(path: destination, detail: "\(error)")
        }
        try restrictToOwner(destination)
        try fsyncFile(destination)
    }

    /// Renames `source` over `destination` atomically and makes the rename durable.
    static func replace(_ destination: String, with source: String) throws(StorageError) {
        guard rename(source, destination) == 0 else {
            throw .fileAccess(path: destination, detail: String(cString: strerror(errno)))
        }
        try fsyncFile(URL(fileURLWithPath: destination).deletingLastPathComponent().path)
    }

    private static func fsyncFile(_ path: String) throws(StorageError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .fileAccess(path: path, detail: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw .fileAccess(path: path, detail: String(cString: strerror(errno))) }
    }
}
