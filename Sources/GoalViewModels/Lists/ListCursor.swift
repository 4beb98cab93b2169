/// The UI's selection in a live list: the **entity** it is on, not a row number, so that rows arriving,
/// leaving or moving around it never move it to another entity.
///
/// - When rows are inserted above it, or it moves (a re-ordered ranking, a renamed player), `row` follows the
///   entity.
/// - When its entity leaves the list, it moves to a neighbour — the nearest following row that is still there,
///   else the nearest preceding one — and, unless this client removed the entity itself, `removedByOther` names
///   the entity it was on, so the UI can say so. The next explicit move clears it.
/// - An empty list has no selection; the first rows to arrive put it on the first row.
///
/// Value type, `Sendable`; pure (every transition is a function of the old and new ids).
public struct ListCursor<ID: Hashable & Sendable>: Hashable, Sendable {
    /// The selected entity (nil while the list is empty).
    public private(set) var id: ID?
    /// Its row in the list as shown (nil while the list is empty).
    public private(set) var row: Int?
    /// The entity the selection was on until another client removed it; nil after the next explicit move.
    public private(set) var removedByOther: ID?

    /// No selection (an empty list).
    public init() {}

    /// Follows the selected entity from the rows `old` to the rows `new`.
    ///
    /// - Parameters:
    ///   - old: The ids of the rows shown until now, in order.
    ///   - new: The ids of the rows shown from now on, in order.
    ///   - removedHere: Whether this client itself removed an entity (then its leaving is not flagged).
    mutating func follow(from old: [ID], to new: [ID], removedHere: (ID) -> Bool) {
        guard let id else {
            if let first = new.first { place(first, at: 0) }
            return
        }
        if let index = new.firstIndex(of: id) {
            row = index
            return
        }
        // The entity left: move to its nearest surviving neighbour in the old order, following rows first.
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

    /// Selects the entity `id` if `rows` holds it (an explicit move: clears `removedByOther`).
    ///
    /// - Returns: Whether the selection is now on `id`.
    @discardableResult
    mutating func select(_ id: ID, in rows: [ID]) -> Bool {
        guard let index = rows.firstIndex(of: id) else { return false }
        removedByOther = nil
        place(id, at: index)
        return true
    }

    /// Moves the selection by `delta` rows, clamped to the list (an explicit move: clears `removedByOther`).
    mutating func move(by delta: Int, in rows: [ID]) {
        removedByOther = nil
        guard !rows.isEmpty else {
            id = nil
            row = nil
            return
        }
        let current = row.map { min($0, rows.count - 1) } ?? 0
        let index = min(max(current + delta, 0), rows.count - 1)
        place(rows[index], at: index)
    }

    private mutating func place(_ id: ID, at row: Int) {
        self.id = id
        self.row = row
    }
}
