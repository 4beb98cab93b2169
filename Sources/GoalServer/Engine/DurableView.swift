import GoalModel

/// The league as it is durable: the state, its revision and d_revision. Snapshots are built from it (off the
/// engine queue; capturing it is O(1) because `LeagueState` is made of persistent maps).
///
/// Value type, `Sendable`.
struct DurableView: Sendable {
    let state: LeagueState
    let digest: Digest
    var revision: Revision { state.revision }
}
