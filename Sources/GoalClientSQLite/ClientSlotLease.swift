import Foundation
import GoalLocking

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive `flock` on one instance slot's lease file (`<database>.slot-<n>.lock`, mode 0600): while a process
/// holds it, no other process uses that slot's client instance, so two goal-client processes on one login never
/// share a seq counter. The kernel drops the lock when the process ends however it ends (kill -9 included), so a
/// crashed process never blocks a slot. The lock belongs to the open file (`O_CLOEXEC`): a child the holder forks
/// shares it only until it execs, and two opens in one process exclude each other like two processes.
///
/// Threading: `Sendable` (the descriptor lives in a `LockedValue`). Lifetime: held until `release()` or until the object is
/// released.
public final class ClientSlotLease: Sendable {
    /// The slot this lease holds.
    public let slot: Int
    /// The locked lease file; -1 once released.
    private let descriptor: LockedValue<Int32>

    private init(slot: Int, descriptor: Int32) {
        self.slot = slot
        self.descriptor = LockedValue(descriptor)
    }

    deinit { release() }

    /// Lets go of the slot (closing the lease file drops the lock). Idempotent.
    public func release() {
        descriptor.withLock { value in
            if value >= 0 { close(value) }
            value = -1
        }
    }

    /// The lease file of `slot` next to `databasePath`.
    static func path(databasePath: String, slot: Int) -> String { "\(databasePath).slot-\(slot).lock" }

    /// Takes the lease of `slot` if no other process holds it.
    /// - Parameter wait: Block until the holder lets go instead of giving up at once.
    /// - Returns: The lease, or nil when another process holds it (only without `wait`).
    /// - Throws: `ClientStateStoreError.io` when the lease file cannot be opened or locked.
    static func acquire(databasePath: String, slot: Int, wait: Bool) throws(ClientStateLeaseError) -> ClientSlotLease? {
        let path = Self.path(databasePath: databasePath, slot: slot)
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw ClientStateLeaseError(path: path, code: errno) }
        while flock(descriptor, LOCK_EX | (wait ? 0 : LOCK_NB)) != 0 {
            let code = errno
            if code == EINTR { continue }
            close(descriptor)
            if code == EWOULDBLOCK { return nil }
            throw ClientStateLeaseError(path: path, code: code)
        }
        return ClientSlotLease(slot: slot, descriptor: descriptor)
    }
}

/// A lease file could not be opened or locked. Value type, `Sendable`.
struct ClientStateLeaseError: Error, Sendable, CustomStringConvertible {
    let path: String
    let code: Int32

    var description: String { "cannot lock \(path): \(String(cString: strerror(code)))" }
}
