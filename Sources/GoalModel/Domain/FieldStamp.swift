/// Who last changed a field (or an entity), and at which revision.
///
/// The conflict rules compare a stamp with a mutation's base revision and its client instance: a written
/// field conflicts iff its stamp is newer than the base, by another instance, and the value differs.
public struct FieldStamp: Hashable, Sendable {
    /// The revision of the commit that last wrote the field.
    public var revision: Revision
    /// The client instance whose mutation made that commit.
    public var writer: ClientInstanceID

    public init(revision: Revision, writer: ClientInstanceID) {
        self.revision = revision
        self.writer = writer
    }

    /// True when the field changed after `base` by an instance other than `instance`.
    public func changed(after base: Revision, byOtherThan instance: ClientInstanceID) -> Bool {
        revision > base && writer != instance
    }
}
