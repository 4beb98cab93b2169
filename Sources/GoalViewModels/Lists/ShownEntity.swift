public import GoalModel

/// An entity as the user saw it in a list: its id and the replica revision the list showed it at.
///
/// Actions on list entities take this instead of a row number, so a row arriving above or leaving never makes
/// them act on another entity. The revision is sent as the mutation's `base` (PROTOCOL.md §4): if another
/// client changed the entity after the user saw it, the server refuses the edit or delete as a `conflict`
/// instead of applying it to something the user did not see (docs/RULES.md, "Conflict rules").
///
/// Value type, `Sendable`. Capture it when the user commits to the entity (a delete prompt opens), not when
/// the action runs.
public struct ShownEntity<ID: Hashable & Sendable>: Hashable, Sendable {
    public let id: ID
    /// The revision of the list the user saw the entity in.
    public let revision: Revision

    /// - Parameters:
    ///   - id: The entity.
    ///   - revision: The revision the user saw it at.
    public init(id: ID, revision: Revision) {
        self.id = id
        self.revision = revision
    }
}
