@testable import GoalViewModels

/// `ListCursor`'s transitions as they were written before the cursor could follow through lookups (arrays, scans):
/// the reference its faster paths must match, transition for transition.
struct ReferenceCursor<ID: Hashable & Sendable>: CustomStringConvertible {
    var id: ID?
    var row: Int?
    var removedByOther: ID?

    var description: String { "reference(id: \(String(describing: id)), row: \(String(describing: row)))" }

    /// Whether `cursor` is in the same state.
    func matches(_ cursor: ListCursor<ID>) -> Bool {
        cursor.id == id && cursor.row == row && cursor.removedByOther == removedByOther
    }

    mutating func follow(from old: [ID], to new: [ID], removedHere: (ID) -> Bool) {
        guard let id else {
            if let first = new.first { place(first, at: 0) }
            return
        }
        if let index = new.firstIndex(of: id) {
            row = index
            return
        }
        let present = Set(new)
        let oldIndex = old.firstIndex(of: id) ?? row ?? 0
        let following = old.indices.contains(oldIndex) ? Array(old[(oldIndex + 1)...]) : []
        let preceding = old.indices.contains(oldIndex) ? Array(old[..<oldIndex].reversed()) : []
        let neighbour = following.first(where: present.contains) ?? preceding.first(where: present.contains)
        if !removedHere(id) { removedByOther = id }
        if let neighbour, let index = new.firstIndex(of: neighbour) {
            place(neighbour, at: index)
        } else if new.isEmpty {
            self.id = nil
            row = nil
        } else {
            let index = min(oldIndex, new.count - 1)
            place(new[index], at: index)
        }
    }

    mutating func select(_ id: ID, in rows: [ID]) {
        guard let index = rows.firstIndex(of: id) else { return }
        removedByOther = nil
        place(id, at: index)
    }

    private mutating func place(_ id: ID, at row: Int) {
        self.id = id
        self.row = row
    }
}
