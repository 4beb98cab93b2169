/// What a token may do. Viewer reads; editor creates and edits players and matches and deletes matches;
/// admin also deletes players and manages tokens.
public enum Role: String, Hashable, Sendable, CaseIterable, Comparable {
    case viewer
    case editor
    case admin

    private var rank: Int {
        switch self {
        case .viewer: 0
        case .editor: 1
        case .admin: 2
        }
    }

    public static func < (lhs: Role, rhs: Role) -> Bool { lhs.rank < rhs.rank }

    /// Whether this role may submit the given mutation.
    public func permits(_ action: MutationAction) -> Bool {
        switch action {
        case .deletePlayer: self >= .admin
        case .createPlayer, .renamePlayer, .createMatch, .updateMatch, .adjustGoals, .deleteMatch: self >= .editor
        }
    }

    /// Whether this role may create, list and revoke tokens.
    public var managesTokens: Bool { self == .admin }
}
