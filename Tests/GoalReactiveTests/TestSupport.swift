import Synchronization

@testable import GoalReactive

/// A thread-safe, append-only log for assertions on exact event sequences.
final class Log<Entry: Sendable>: Sendable {
    private let entries = Mutex<[Entry]>([])

    func append(_ entry: Entry) {
        entries.withLock { $0.append(entry) }
    }

    var all: [Entry] {
        entries.withLock { $0 }
    }
}

/// An object whose deallocation can be observed through a `weak` reference.
final class Tracker: Sendable {}

enum TestError: Swift.Error, Equatable, Sendable {
    case boom
    case other
}
