/// One row that stays in the list but changes its place relative to the rows around it.
///
/// Value type, `Sendable`. `from` is an index into the **old** list, `to` an index into the **new** list, exactly the
/// pair a table view's `moveRow(at:to:)` takes inside one batch update.
public struct RowMove: Hashable, Sendable, CustomStringConvertible {
    /// The row's index in the old list.
    public var from: Int
    /// The row's index in the new list.
    public var to: Int

    /// Creates a move.
    /// - Parameters:
    ///   - from: The row's index in the old list.
    ///   - to: The row's index in the new list.
    public init(from: Int, to: Int) {
        self.from = from
        self.to = to
    }

    /// `"from→to"`, for test failures.
    public var description: String { "\(from)→\(to)" }
}
