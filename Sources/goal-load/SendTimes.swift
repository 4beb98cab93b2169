import GoalLocking
import Synchronization

/// When each of one writer's mutations was sent, by seq, on `MonotonicClock`, and the node it sends to now.
///
/// Threading: the writer stores from its connection's event loop; subscribers read from theirs. A `LockedValue` guards
/// the table (tiny critical sections: one array store or load), an atomic the node. Lifetime: one per writer, for
/// the whole run.
final class SendTimes: Sendable {
    private let times = LockedValue<[UInt64]>([0])
    private let node: Atomic<Int>

    /// - Parameter server: The node (index into the run's URLs) the writer starts on.
    init(server: Int = 0) {
        node = Atomic(server)
    }

    /// The node the writer sends to (a mutation sent just before it moved is counted on the new one).
    var server: Int { node.load(ordering: .relaxed) }

    /// Notes that the writer moved on to `server` (its node was lost).
    func moved(to server: Int) {
        node.store(server, ordering: .relaxed)
    }

    /// Records that `seq` was sent at `nanoseconds`.
    func record(seq: UInt64, at nanoseconds: UInt64) {
        times.withLock { table in
            let index = Int(seq)
            if index >= table.count { table.append(contentsOf: repeatElement(0, count: index - table.count + 1)) }
            table[index] = nanoseconds
        }
    }

    /// The send time of `seq`, or nil when it was never recorded.
    func sentAt(seq: UInt64) -> UInt64? {
        times.withLock { table in
            let index = Int(seq)
            guard index < table.count, table[index] != 0 else { return nil }
            return table[index]
        }
    }
}

/// Every writer's `SendTimes`, found from a changeset's `client_instance`, and the node each writer sends to.
///
/// Writer instances are named `<prefix><index>`; `sent` parses the index from the bytes without allocating.
/// Immutable after init, `Sendable`.
final class SendTimeDirectory: Sendable {
    /// The instance-name prefix of this run's writers, e.g. `load-1a2b3c4d-w`.
    let prefix: [UInt8]
    private let writers: [SendTimes]

    /// - Parameter server: The node writer `index` starts on.
    init(prefix: String, writers: Int, server: (Int) -> Int = { _ in 0 }) {
        self.prefix = Array(prefix.utf8)
        self.writers = (0..<writers).map { SendTimes(server: server($0)) }
    }

    /// The instance name of writer `index`.
    func instanceName(writer index: Int) -> String {
        String(decoding: prefix, as: UTF8.self) + String(index)
    }

    /// The table of writer `index`.
    func times(writer index: Int) -> SendTimes { writers[index] }

    /// When the mutation (`instance`, `seq`) was sent and to which node (the writer's now), or nil when the instance
    /// is not one of this run's writers (or the send time is not known).
    func sent(instance: UnsafeBufferPointer<UInt8>, seq: UInt64) -> (at: UInt64, server: Int)? {
        guard instance.count > prefix.count else { return nil }
        for offset in 0..<prefix.count where instance[offset] != prefix[offset] { return nil }
        var index = 0
        for offset in prefix.count..<instance.count {
            let digit = instance[offset]
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            index = index * 10 + Int(digit - UInt8(ascii: "0"))
            guard index < writers.count else { return nil }
        }
        return writers[index].sentAt(seq: seq).map { ($0, writers[index].server) }
    }
}
