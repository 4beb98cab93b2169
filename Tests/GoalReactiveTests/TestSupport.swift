import Foundation

@testable import GoalReactive

/// A thread-safe, append-only log for assertions on exact event sequences.
///
/// Uses `NSLock` rather than `Mutex`: on Linux, TSan cannot see `Mutex`'s futex-based contended path.
final class Log<Entry: Sendable>: @unchecked Sendable {
    // `@unchecked Sendable`: `entries` is only touched under `lock`.
    private let lock = NSLock()
    private var entries: [Entry] = []

    func append(_ entry: Entry) {
        lock.lock()
        defer { lock.unlock() }
        entries.append(entry)
    }

    var all: [Entry] {
        lock.lock()
        defer { lock.unlock() }
        return entries
    }
}

/// An object whose deallocation can be observed through a `weak` reference.
final class Tracker: Sendable {}

enum TestError: Swift.Error, Equatable, Sendable {
    case boom
    case other
}
