import HashTreeCollections

/// One of a replica's entity maps (players, matches or ratings by id): a persistent hash tree
/// (swift-collections' `TreeDictionary`), so copying a replica is O(1) and changing a copy copies only the path
/// to the changed entry, never the whole league. `GoalClient` publishes a copy of its replica after every
/// changeset and then changes its own: with a plain `Dictionary` that next change copied every entity.
///
/// Reads like a dictionary (subscript, `values`, `keys`, `count`, iteration as `(key, value)` pairs in no
/// particular order); only `ReplicaState` writes it. Value type, `Sendable` when its contents are.
public struct ReplicaMap<Key: Hashable, Value>: Sequence {
    private var storage: TreeDictionary<Key, Value>

    /// An empty map.
    public init() { storage = [:] }

    /// A map of these entries; a later duplicate key replaces an earlier one.
    public init(_ entries: some Sequence<(Key, Value)>) {
        storage = [:]
        for (key, value) in entries { storage[key] = value }
    }

    /// The value for `key`, if any (O(1) expected).
    public internal(set) subscript(key: Key) -> Value? {
        get { storage[key] }
        set { storage[key] = newValue }
    }

    /// Every value, in no particular order (no copy).
    public var values: some Collection<Value> { storage.values }

    /// Every key, in no particular order (no copy).
    public var keys: some Collection<Key> { storage.keys }

    public var count: Int { storage.count }

    public var isEmpty: Bool { storage.isEmpty }

    public var underestimatedCount: Int { storage.count }

    public func makeIterator() -> some IteratorProtocol<(key: Key, value: Value)> { storage.makeIterator() }
}

extension ReplicaMap: Sendable where Key: Sendable, Value: Sendable {}

extension ReplicaMap: Equatable where Value: Equatable {
    public static func == (lhs: ReplicaMap, rhs: ReplicaMap) -> Bool { lhs.storage == rhs.storage }
}

extension ReplicaMap: Hashable where Value: Hashable {
    public func hash(into hasher: inout Hasher) { hasher.combine(storage) }
}

extension ReplicaMap: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (Key, Value)...) { self.init(elements) }
}
