/// The difference between two versions of a list, in the shape a table view (or the terminal UI) redraws from.
///
/// Value type, `Sendable`, no state of its own: build one with `init(old:new:identity:contentMatches:)` and hand it
/// to the UI. Rows are matched by **identity** (an id), and a matched row whose **content** changed is a
/// modification, as in SwiftGoal's `Changeset`, plus moves for rows whose relative order changed.
///
/// Index spaces (the same as one `UITableView.performBatchUpdates` call):
/// - `deletions`: old indexes of rows that are gone.
/// - `modifications`: old indexes of rows kept whose content changed (a moved row can be here too).
/// - `insertions`: new indexes of rows that are new.
/// - `moves`: kept rows that are not on the longest run of rows keeping their relative order, `from` an old index,
///   `to` a new index. No row is both deleted and moved, or both inserted and moved.
///
/// Every array is sorted ascending (`moves` by `to`) and free of duplicates.
///
/// ## Replay order
/// Replaying the changes on the old list one step at a time gives the new list. The order is fixed and is what
/// `applied(to:new:)` does:
/// 1. Remove the rows at `deletions` and at every `moves[k].from`, highest old index first.
/// 2. Insert the rows at `insertions` and at every `moves[k].to`, lowest new index first. An inserted row is
///    `new[to]`; a moved row is the one removed from `from`.
/// 3. Reload the rows at `modifications`: the row that was at old index `m` now holds its new content.
///
/// A move is therefore a removal plus an insertion of the same row, never a duplicated or a lost row. UIKit callers
/// pass the arrays to one batch update as they are, except that a row that is both moved and modified should be
/// reloaded after the batch at its new index (UIKit refuses a reload and a move of one row in the same batch);
/// the terminal UI redraws every row listed.
///
/// Identity and content are the caller's: for SwiftGoal's models, identity is the id and `contentMatches` compares
/// every displayed field.
public struct RowChanges: Hashable, Sendable {
    /// Old indexes of removed rows, ascending.
    public var deletions: [Int]
    /// Old indexes of kept rows whose content changed, ascending.
    public var modifications: [Int]
    /// New indexes of added rows, ascending.
    public var insertions: [Int]
    /// Kept rows whose relative order changed (old index → new index), ascending by `to`.
    public var moves: [RowMove]

    /// Creates a set of changes from its parts (tests, and decoders); the parts are taken as they are.
    /// - Parameters:
    ///   - deletions: Old indexes of removed rows.
    ///   - modifications: Old indexes of kept rows whose content changed.
    ///   - insertions: New indexes of added rows.
    ///   - moves: Kept rows whose relative order changed.
    public init(deletions: [Int] = [], modifications: [Int] = [], insertions: [Int] = [], moves: [RowMove] = []) {
        self.deletions = deletions
        self.modifications = modifications
        self.insertions = insertions
        self.moves = moves
    }

    /// No changes: the UI has nothing to redraw.
    public static let empty = RowChanges()

    /// True when no row was deleted, modified, inserted or moved.
    public var isEmpty: Bool {
        deletions.isEmpty && modifications.isEmpty && insertions.isEmpty && moves.isEmpty
    }
}
