/// One node of a `PersistentList`: an AVL tree node that also counts the elements of its subtree, so the tree finds
/// the element at an index in O(log n).
///
/// Immutable: every operation returns new nodes along the path it changed and shares every other subtree with the
/// tree it came from, so copies of a list share all but the paths their edits touched. `Sendable` because nothing
/// in it ever changes (its elements are `Sendable`).
final class PersistentListNode<Element: Sendable>: Sendable {
    let left: PersistentListNode?
    let element: Element
    let right: PersistentListNode?
    /// Elements in this subtree (this node's included).
    let count: Int
    /// Levels in this subtree (a leaf: 1).
    let height: Int

    init(_ left: PersistentListNode?, _ element: Element, _ right: PersistentListNode?) {
        self.left = left
        self.element = element
        self.right = right
        count = (left?.count ?? 0) + 1 + (right?.count ?? 0)
        height = max(left?.height ?? 0, right?.height ?? 0) + 1
    }

    /// The elements before this node's own (its position in its subtree).
    var leftCount: Int { left?.count ?? 0 }

    /// The element at `index` of this subtree. - Precondition: `0 <= index < count`.
    func element(at index: Int) -> Element {
        var node = self
        var index = index
        while true {
            let before = node.leftCount
            if index < before {
                node = node.left!
            } else if index > before {
                index -= before + 1
                node = node.right!
            } else {
                return node.element
            }
        }
    }

    /// This subtree with `element` at `index` instead. - Precondition: `0 <= index < count`.
    func replacing(at index: Int, with element: Element) -> PersistentListNode {
        let before = leftCount
        if index < before { return PersistentListNode(left!.replacing(at: index, with: element), self.element, right) }
        if index > before {
            return PersistentListNode(left, self.element, right!.replacing(at: index - before - 1, with: element))
        }
        return PersistentListNode(left, element, right)
    }

    /// `node` with `element` inserted at `index` (the subtree's elements from `index` on follow it).
    /// - Precondition: `0 <= index <= count`.
    static func inserting(_ element: Element, at index: Int, into node: PersistentListNode?) -> PersistentListNode {
        guard let node else { return PersistentListNode(nil, element, nil) }
        let before = node.leftCount
        if index <= before {
            return balanced(inserting(element, at: index, into: node.left), node.element, node.right)
        }
        return balanced(node.left, node.element, inserting(element, at: index - before - 1, into: node.right))
    }

    /// This subtree without the element at `index`, and that element. - Precondition: `0 <= index < count`.
    func removing(at index: Int) -> (node: PersistentListNode?, removed: Element) {
        let before = leftCount
        if index < before {
            let (newLeft, removed) = left!.removing(at: index)
            return (Self.balanced(newLeft, element, right), removed)
        }
        if index > before {
            let (newRight, removed) = right!.removing(at: index - before - 1)
            return (Self.balanced(left, element, newRight), removed)
        }
        guard let left else { return (right, element) }
        guard let right else { return (left, element) }
        // Two children: the first element of the right subtree takes this node's place.
        let (newRight, first) = right.removing(at: 0)
        return (Self.balanced(left, first, newRight), element)
    }

    /// A balanced tree of `elements` (each level full but the last). O(n).
    static func build(_ elements: ArraySlice<Element>) -> PersistentListNode? {
        guard !elements.isEmpty else { return nil }
        let middle = elements.startIndex + elements.count / 2
        return PersistentListNode(
            build(elements[elements.startIndex..<middle]),
            elements[middle],
            build(elements[(middle + 1)...])
        )
    }

    /// A node over `left`, `element`, `right` whose heights differ by at most 2, rotated back into AVL balance.
    static func balanced(
        _ left: PersistentListNode?,
        _ element: Element,
        _ right: PersistentListNode?
    ) -> PersistentListNode {
        let leftHeight = left?.height ?? 0
        let rightHeight = right?.height ?? 0
        if leftHeight > rightHeight + 1, let left {
            if (left.left?.height ?? 0) >= (left.right?.height ?? 0) {
                return PersistentListNode(left.left, left.element, PersistentListNode(left.right, element, right))
            }
            let middle = left.right!
            return PersistentListNode(
                PersistentListNode(left.left, left.element, middle.left),
                middle.element,
                PersistentListNode(middle.right, element, right)
            )
        }
        if rightHeight > leftHeight + 1, let right {
            if (right.right?.height ?? 0) >= (right.left?.height ?? 0) {
                return PersistentListNode(PersistentListNode(left, element, right.left), right.element, right.right)
            }
            let middle = right.left!
            return PersistentListNode(
                PersistentListNode(left, element, middle.left),
                middle.element,
                PersistentListNode(middle.right, right.element, right.right)
            )
        }
        return PersistentListNode(left, element, right)
    }

    /// Whether this subtree keeps the AVL and count invariants (tests): every node's children differ in height by
    /// at most one, and every stored count and height is what its children give.
    func isValid() -> Bool {
        let leftHeight = left?.height ?? 0
        let rightHeight = right?.height ?? 0
        return abs(leftHeight - rightHeight) <= 1
            && height == max(leftHeight, rightHeight) + 1
            && count == (left?.count ?? 0) + 1 + (right?.count ?? 0)
            && left?.isValid() ?? true
            && right?.isValid() ?? true
    }
}
