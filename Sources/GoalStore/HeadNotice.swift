/// What a writer's commit notification tells the other writers of a shared store: the version its batch left and,
/// when the notification had room for it, the batch itself with the head it was written on, so a follower standing
/// at that head takes the batch as it is and reads nothing (docs/SCALING.md, "Fan-out").
///
/// Value type, `Sendable`.
public struct HeadNotice: Hashable, Sendable {
    /// A written batch as its notification carries it: `changes` is exactly what `changes(after: base)` would have
    /// read right after that batch (its commits with their stored frames, its client records, the head after it).
    public struct Written: Hashable, Sendable {
        /// The head the batch was written on.
        public var base: StoreHead
        /// What it wrote; `changes.head` is the head it left.
        public var changes: ForeignChanges

        public init(base: StoreHead, changes: ForeignChanges) {
            self.base = base
            self.changes = changes
        }
    }

    /// The store's version after the batch.
    public var version: StoreVersion
    /// The batch, or nil when the notification only rang (too large to carry, an import, or an older writer).
    public var written: Written?

    public init(version: StoreVersion, written: Written? = nil) {
        self.version = version
        self.written = written
    }
}
