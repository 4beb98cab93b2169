/// An insertion-ordered collection whose elements can be removed by the token handed out on insertion.
///
/// Not thread-safe: the owner guards it with its own lock. Tokens are never reused, so removing with a stale
/// token is a harmless no-op. Ids and elements are kept in two parallel arrays so that `elements`, read on every
/// event a signal sends, is a copy-on-write reference to existing storage rather than a freshly mapped array.
struct Bag<Element> {
    /// Identifies one insertion.
    struct Token: Hashable, Sendable {
        fileprivate let id: UInt64
    }

    private var ids: [UInt64] = []
    /// The elements in insertion order; `elements[i]` was inserted with `ids[i]`.
    private(set) var elements: [Element] = []
    private var nextID: UInt64 = 0

    init() {}

    var isEmpty: Bool { elements.isEmpty }

    /// Appends `element` and returns the token that removes it.
    @discardableResult
    mutating func insert(_ element: Element) -> Token {
        let id = nextID
        nextID &+= 1
        ids.append(id)
        elements.append(element)
        return Token(id: id)
    }

    /// Removes the element inserted with `token`, if still present, and returns it.
    @discardableResult
    mutating func remove(using token: Token) -> Element? {
        // Ids grow monotonically, so the entries are sorted by id: binary search.
        var low = 0
        var high = ids.count
        while low < high {
            let mid = (low + high) / 2
            if ids[mid] < token.id { low = mid + 1 } else { high = mid }
        }
        guard low < ids.count, ids[low] == token.id else { return nil }
        ids.remove(at: low)
        return elements.remove(at: low)
    }

    /// Removes and returns all elements, in insertion order.
    mutating func removeAll() -> [Element] {
        let all = elements
        ids.removeAll()
        elements.removeAll()
        return all
    }
}
