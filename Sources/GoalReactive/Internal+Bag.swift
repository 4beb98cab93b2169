/// An insertion-ordered collection whose elements can be removed by the token handed out on insertion.
///
/// Not thread-safe: the owner guards it with its own lock. Tokens are never reused, so removing with a stale
/// token is a harmless no-op.
struct Bag<Element> {
    /// Identifies one insertion.
    struct Token: Hashable, Sendable {
        fileprivate let id: UInt64
    }

    private var entries: [(id: UInt64, element: Element)] = []
    private var nextID: UInt64 = 0

    init() {}

    var isEmpty: Bool { entries.isEmpty }

    /// The elements in insertion order.
    var elements: [Element] { entries.map(\.element) }

    /// Appends `element` and returns the token that removes it.
    @discardableResult
    mutating func insert(_ element: Element) -> Token {
        let id = nextID
        nextID &+= 1
        entries.append((id, element))
        return Token(id: id)
    }

    /// Removes the element inserted with `token`, if still present, and returns it.
    @discardableResult
    mutating func remove(using token: Token) -> Element? {
        // Ids grow monotonically, so the entries are sorted by id: binary search.
        var low = 0
        var high = entries.count
        while low < high {
            let mid = (low + high) / 2
            if entries[mid].id < token.id { low = mid + 1 } else { high = mid }
        }
        guard low < entries.count, entries[low].id == token.id else { return nil }
        return entries.remove(at: low).element
    }

    /// Removes and returns all elements, in insertion order.
    mutating func removeAll() -> [Element] {
        let all = elements
        entries.removeAll()
        return all
    }
}
