/// An ordered list with O(log n) access, insertion, removal and replacement at an index, whose copies share their
/// storage: the live lists' rows (the match list holds 10,000 of them), so that one changeset costs the rows it
/// touches, not a copy of them all.
///
/// A persistent AVL tree whose nodes count their subtrees (`PersistentListNode`). An edit builds new nodes along
/// one root-to-element path (about 1.44 log₂ n of them) and shares the rest with every copy: a copy is O(1), and
/// neither the copy nor the original sees the other's later edits (value semantics). Iterating is O(n).
///
/// Hand-written because swift-collections 1.6.0 (the version this package uses) has no public positional tree
/// with stable API: its `Rope` is in the underscored, source-unstable `_RopeModule` (built in Swift 5 mode), and
/// the B-trees of `SortedCollections` are keyed, not positional, and only behind the `UnstableSortedCollections`
/// trait.
///
/// Value type, `Sendable`: its nodes are immutable, so copies may be read and edited on any threads. Lifetime: a node
/// lives as long as a copy of the list refers to it.
public struct PersistentList<Element: Sendable>: Sendable {
    private var root: PersistentListNode<Element>?

    /// An empty list.
    public init() {}

    /// The list of `elements`, in order. O(n).
    public init(_ elements: some Sequence<Element>) {
        root = PersistentListNode.build(ArraySlice(elements))
    }

    /// Inserts `element` at `index`; the elements from `index` on move up by one. O(log n).
    /// - Precondition: `0 <= index <= count`.
    public mutating func insert(_ element: Element, at index: Int) {
        precondition(index >= 0 && index <= count, "index \(index) out of 0...\(count)")
        root = PersistentListNode.inserting(element, at: index, into: root)
    }

    /// Appends `element`. O(log n).
    public mutating func append(_ element: Element) {
        insert(element, at: count)
    }

    /// Removes and returns the element at `index`; the elements after it move down by one. O(log n).
    /// - Precondition: `0 <= index < count`.
    @discardableResult
    public mutating func remove(at index: Int) -> Element {
        checkIndex(index)
        let (node, removed) = root!.removing(at: index)
        root = node
        return removed
    }

    /// The first index whose element satisfies `belongsAfter`, or `count` when none does, where the list is
    /// partitioned by it (every element satisfying it follows every element that does not): a binary search down
    /// the tree, O(log n) calls of `belongsAfter`.
    public func partitioningIndex(where belongsAfter: (Element) throws -> Bool) rethrows -> Int {
        var node = root
        var offset = 0
        var found = count
        while let current = node {
            if try belongsAfter(current.element) {
                found = offset + current.leftCount
                node = current.left
            } else {
                offset += current.leftCount + 1
                node = current.right
            }
        }
        return found
    }

    /// Whether the tree keeps its balance and count invariants (tests).
    var isValid: Bool { root?.isValid() ?? true }

    private func checkIndex(_ index: Int) {
        precondition(index >= 0 && index < count, "index \(index) out of 0..<\(count)")
    }
}

extension PersistentList: RandomAccessCollection, MutableCollection {
    public var startIndex: Int { 0 }
    public var endIndex: Int { count }
    /// O(1).
    public var count: Int { root?.count ?? 0 }
    public var isEmpty: Bool { root == nil }

    /// The element at `index`; setting it replaces that element (O(log n) both ways).
    public subscript(index: Int) -> Element {
        get {
            checkIndex(index)
            return root!.element(at: index)
        }
        set {
            checkIndex(index)
            root = root!.replacing(at: index, with: newValue)
        }
    }

    public func makeIterator() -> Iterator { Iterator(root) }

    /// In-order iteration with a stack of the nodes still to visit: O(n) for the whole list, O(log n) memory.
    /// Value type; it iterates the list as it was when the iterator was made (it holds that version's nodes), used
    /// on one thread at a time like any iterator.
    public struct Iterator: IteratorProtocol {
        private var stack: [PersistentListNode<Element>] = []

        fileprivate init(_ root: PersistentListNode<Element>?) {
            stack.reserveCapacity(root?.height ?? 0)
            descend(from: root)
        }

        public mutating func next() -> Element? {
            guard let node = stack.popLast() else { return nil }
            descend(from: node.right)
            return node.element
        }

        private mutating func descend(from node: PersistentListNode<Element>?) {
            var node = node
            while let current = node {
                stack.append(current)
                node = current.left
            }
        }
    }
}

extension PersistentList: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: Element...) {
        self.init(elements)
    }
}

extension PersistentList: Equatable where Element: Equatable {
    /// Same elements in the same order; O(1) when both share their root.
    public static func == (lhs: PersistentList, rhs: PersistentList) -> Bool {
        lhs.root === rhs.root || lhs.elementsEqual(rhs)
    }
}

extension PersistentList: Hashable where Element: Hashable {
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for element in self { hasher.combine(element) }
    }
}

extension PersistentList: CustomStringConvertible {
    /// As an array prints.
    public var description: String { Array(self).description }
}
