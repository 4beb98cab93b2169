/// What a session says it is doing (docs/PROTOCOL.md §4 "Presence"): just online, viewing (a match or the
/// league), or editing a match. Presence is never logged and never part of the digest chain.
///
/// Value type, `Sendable`.
public enum PresenceActivity: Hashable, Sendable {
    /// Connected, nothing announced (every session starts here).
    case online
    /// Looking at the league, or at one match.
    case viewing(MatchID?)
    /// Has the edit form of this match open.
    case editing(MatchID)

    /// The three states as they travel on the wire (`state`).
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case online
        case viewing
        case editing
    }

    /// This activity's state.
    public var kind: Kind {
        switch self {
        case .online: .online
        case .viewing: .viewing
        case .editing: .editing
        }
    }

    /// The match viewed or edited, if any.
    public var matchID: MatchID? {
        switch self {
        case .online: nil
        case .viewing(let match): match
        case .editing(let match): match
        }
    }
}
