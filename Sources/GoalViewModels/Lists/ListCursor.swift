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
/// Value type, `Sendable`; pure (every transition is a function of the old and new ids, given as arrays or, for
/// long lists, as O(log n) lookups: `follow(oldCount:oldID:newCount:newID:newIndex:removedHere:)`).
public struct ListCursor<ID: Hashable & Sendable>: Hashable, Sendable {
    /// The selected entity (nil while the list is empty).
    public private(set) var id: ID?
    /// Its row in the list as shown (nil while the list is empty).
    public private(set) var row: Int?
    /// The entity the selection was on until another client removed it; nil after the next explicit move.
    public private(set) var removedByOther: ID?

    /// No selection (an empty list).
    public init() {}

    /// Follows the selected entity from the rows `old` to the rows `new` (O(n): it indexes `new`).
    ///
    /// - Parameters:
    ///   - old: The ids of the rows shown until now, in order.
    ///   - new: The ids of the rows shown from now on, in order.
    ///   - removedHere: Whether this client itself removed an entity (then its leaving is not flagged).
    mutating func follow(from old: [ID], to new: [ID], removedHere: (ID) -> Bool) {
        var firstIndex: [ID: Int] = [:]
        for (index, id) in new.enumerated() where firstIndex[id] == nil { firstIndex[id] = index }
        follow(
            oldCount: old.count,
            oldID: { old[$0] },
            newCount: new.count,
            newID: { new[$0] },
            newIndex: { firstIndex[$0] },
            removedHere: removedHere
        )
    }

    /// Follows the selected entity from the rows shown until now to the rows shown from now on, reading both
    /// through lookups instead of id arrays: O(log n) for a list whose lookups are, plus one `newIndex` call per
    /// row that left between the entity's old row and its new neighbour. Same transitions as
    /// `follow(from:to:removedHere:)`.
    ///
    /// - Parameters:
    ///   - oldCount: The number of rows shown until now.
    ///   - oldID: The id of the row shown until now at an index (`row` is the selected entity's; when it is
    ///     not, the old rows are searched for it).
    ///   - newCount: The number of rows shown from now on.
    ///   - newID: The id of the row shown from now on at an index.
    ///   - newIndex: The first row of an id among the rows shown from now on, nil when they do not show it.
    ///   - removedHere: Whether this client itself removed an entity (then its leaving is not flagged).
    mutating func follow(
        oldCount: Int,
        oldID: (Int) -> ID,
        newCount: Int,
        newID: (Int) -> ID,
        newIndex: (ID) -> Int?,
        removedHere: (ID) -> Bool
    ) {
        guard let id else {
            if newCount > 0 { place(newID(0), at: 0) }
            return
        }
        if let index = newIndex(id) {
            row = index
            return
        }
        // The entity left: move to its nearest surviving neighbour in the old order, following rows first.
        let oldIndex: Int
        if let row, row >= 0, row < oldCount, oldID(row) == id {
            oldIndex = row
        } else {
            oldIndex = (0..<oldCount).first { oldID($0) == id } ?? row ?? 0
        }
        var neighbour: (id: ID, index: Int)?
        if oldIndex >= 0, oldIndex < oldCount {
            neighbour = Self.firstPresent(in: (oldIndex + 1)..<oldCount, oldID: oldID, newIndex: newIndex)
            if neighbour == nil {
                neighbour = Self.firstPresent(in: (0..<oldIndex).reversed(), oldID: oldID, newIndex: newIndex)
            }
        }
        if !removedHere(id) { removedByOther = id }
        if let neighbour {
            place(neighbour.id, at: neighbour.index)
        } else if newCount == 0 {
            self.id = nil
            row = nil
        } else {
            let index = min(oldIndex, newCount - 1)
            place(newID(index), at: index)
        }
    }

    /// The first old row among `indexes` (in their order) that the new rows still show, with its new index.
    private static func firstPresent(
        in indexes: some Sequence<Int>,
        oldID: (Int) -> ID,
        newIndex: (ID) -> Int?
    ) -> (id: ID, index: Int)? {
        for index in indexes {
            let id = oldID(index)
            if let new = newIndex(id) { return (id, new) }
        }
        return nil
    }

    /// Selects the entity `id` if `rows` holds it (an explicit move: clears `removedByOther`).
    ///
    /// - Returns: Whether the selection is now on `id`.
    @discardableResult
    mutating func select(_ id: ID, in rows: [ID]) -> Bool {
        select(id, at: rows.firstIndex(of: id))
    }

    /// Selects the entity `id`, shown at row `index` (nil: not shown; ignored). An explicit move: clears
    /// `removedByOther`.
    ///
    /// - Returns: Whether the selection is now on `id`.
    @discardableResult
    mutating func select(_ id: ID, at index: Int?) -> Bool {
        guard let index else { return false }
        removedByOther = nil
        place(id, at: index)
        return true
    }

    /// Moves the selection by `delta` rows, clamped to the list (an explicit move: clears `removedByOther`).
    mutating func move<Rows: RandomAccessCollection<ID>>(by delta: Int, in rows: Rows) where Rows.Index == Int {
        removedByOther = nil
        guard !rows.isEmpty else {
            id = nil
            row = nil
            return
        }
        let current = row.map { min($0, rows.count - 1) } ?? 0
        let index = min(max(current + delta, 0), rows.count - 1)
        place(rows[rows.startIndex + index], at: index)
    }

    private mutating func place(_ id: ID, at row: Int) {
        self.id = id
        self.row = row
    }
}
