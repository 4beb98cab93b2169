import Foundation
import GoalLocking

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive advisory lock (`flock`) on `<state>/goald.lock`, held by a running daemon for its whole life so a
/// second daemon, or `goald restore`, on the same state directory refuses to start instead of corrupting it.
///
/// The lock file records the holder's process id. The lock is released by `release()`, when the object is
/// deinitialized, or when the process exits (the kernel drops it even after a crash). Immutable apart from the
/// descriptor, which a `LockedValue` guards, so the class is `Sendable`.
public final class StateDirectoryLock: Sendable {
    /// The lock file.
    public let path: String
    private let descriptor: LockedValue<Int32>

    /// Takes the lock without waiting.
    /// - Parameter directory: The state directory (it must exist).
    /// - Throws: `StateDirectoryLockError.held` with the holder's pid when another process (or another open
    ///   lock in this one) holds it; `.unavailable` when the file cannot be opened.
    public static func acquire(directory: String) throws(StateDirectoryLockError) -> StateDirectoryLock {
        let path = directory + "/goald.lock"
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .unavailable(path: path, reason: String(cString: strerror(errno))) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder = Self.recordedHolder(descriptor)
            close(descriptor)
            throw .held(path: path, pid: holder)
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        return StateDirectoryLock(path: path, descriptor: descriptor)
    }

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = LockedValue(descriptor)
    }

    /// Releases the lock now (idempotent).
    public func release() {
        descriptor.withLock { descriptor in
            guard descriptor >= 0 else { return }
            _ = ftruncate(descriptor, 0)
            close(descriptor)
            descriptor = -1
        }
    }

    deinit { release() }

    private static func recordedHolder(_ descriptor: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return Int32(String(decoding: buffer[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

/// Why the state directory lock could not be taken. Value type, `Sendable`.
public enum StateDirectoryLockError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Another goald (pid when known) holds the lock.
    case held(path: String, pid: Int32?)
    /// The lock file cannot be opened.
    case unavailable(path: String, reason: String)

    public var description: String {
        switch self {
        case .held(let path, let pid):
            "the state directory is in use by another goald" + (pid.map { " (pid \($0))" } ?? "")
                + " holding \(path); stop it first, or give this one another --state-dir"
        case .unavailable(let path, let reason):
            "cannot open the lock file \(path): \(reason)"
        }
    }
}
