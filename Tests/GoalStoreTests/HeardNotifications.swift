import NIOConcurrencyHelpers

/// What a store heard on a channel (other nodes' commits, presence): nil each time its listening (re)started, then
/// each notice or payload. Threading: `Sendable`, lock-protected; recorded from Swift's cooperative pool.
final class HeardNotifications<Value: Sendable>: Sendable {
    let values = NIOLockedValueBox<[Value?]>([])
    func record(_ value: Value?) { values.withLockedValue { $0.append(value) } }
    /// Whether listening started at least once.
    var listening: Bool { !values.withLockedValue(\.isEmpty) }
    /// How many times listening started.
    var starts: Int { values.withLockedValue { $0.count { $0 == nil } } }
    var payloads: [Value] { values.withLockedValue { $0.compactMap { $0 } } }
}
