import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// File-system steps for goald's state directory: directories made 0700, secrets written 0600, either exclusively
/// (never overwriting) or atomically (a temporary file renamed over the old one).
///
/// Stateless, callable from any thread. Every failure is a `FileStepError` naming the path and the system's reason.
package enum OwnerOnlyFile {
    /// Creates `path` (and missing parents) with mode 0700; an existing directory is kept as it is.
    package static func createDirectory(_ path: String) throws(FileStepError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw FileStepError(path: path, reason: "exists and is not a directory")
            }
            return
        }
        do {
            try FileManager.default.createDirectory(
                atPath: path,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
        } catch {
            throw FileStepError(path: path, reason: "cannot create the directory (\(error.localizedDescription))")
        }
    }

    /// Writes `contents` to a new file created with mode 0600; fails with `exists == true` if a file is already there.
    package static func writeExclusively(_ contents: [UInt8], to path: String) throws(FileStepError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let code = errno
            throw FileStepError(path: path, reason: String(cString: strerror(code)), exists: code == EEXIST)
        }
        defer { close(descriptor) }
        try writeAll(contents, to: descriptor, path: path)
    }

    /// Replaces the file at `path` atomically: writes a 0600 temporary file next to it, then renames it over `path`.
    /// - Parameter mode: The final mode (0600 for keys, 0644 for certificates).
    package static func replace(_ path: String, with contents: [UInt8], mode: Int) throws(FileStepError) {
        let temporary = path + ".new"
        guard unlink(temporary) == 0 || errno == ENOENT else {
            throw FileStepError(path: temporary, reason: String(cString: strerror(errno)))
        }
        try writeExclusively(contents, to: temporary)
        guard chmod(temporary, mode_t(mode)) == 0, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw FileStepError(path: path, reason: reason)
        }
    }

    /// Reads a whole file.
    package static func read(_ path: String) throws(FileStepError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            let reason = exists(path) ? "not readable by this user" : "no such file"
            throw FileStepError(path: path, reason: reason)
        }
        return [UInt8](data)
    }

    /// Removes a file, ignoring a missing one (best effort, for undoing a half-done step).
    package static func removeIfPresent(_ path: String) { unlink(path) }

    /// True when something exists at `path`.
    package static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// The permission bits of `path` (e.g. 0o600), or nil when it cannot be examined.
    package static func permissions(of path: String) -> Int? {
        // A file that cannot be examined has no permission bits to report: nil, as documented.
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        return (attributes?[.posixPermissions] as? NSNumber).map { $0.intValue & 0o7777 }
    }

    private static func writeAll(_ contents: [UInt8], to descriptor: Int32, path: String) throws(FileStepError) {
        var offset = 0
        while offset < contents.count {
            let written = contents[offset...].withUnsafeBytes { buffer in
                write(descriptor, buffer.baseAddress, buffer.count)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw FileStepError(path: path, reason: String(cString: strerror(errno)))
            }
            offset += written
        }
        guard fsync(descriptor) == 0 else {
            throw FileStepError(path: path, reason: String(cString: strerror(errno)))
        }
    }
}

/// A failed file-system step: which path, and why. Value type, `Sendable`.
package struct FileStepError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file or directory.
    package var path: String
    /// The system's reason.
    package var reason: String
    /// True when an exclusive create found a file already there.
    package var exists: Bool = false

    package var description: String { "\(path): \(reason)" }
}
