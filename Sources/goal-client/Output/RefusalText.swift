import Foundation
import GoalClient
import GoalModel
import GoalViewModels

/// How goal-client words a refused mutation for people: the role a refusal names is the role the action needs
/// (`Role.permits`, the server's own rule), and ids in the server's message are shown as names. Pure functions.
enum RefusalText {
    /// The least role that may submit `action` (editor for most, admin to delete a player).
    static func neededRole(for action: MutationAction) -> Role {
        Role.allCases.sorted().first { $0.permits(action) } ?? .admin
    }

    /// The hint after an `unauthorized` refusal: which token the action needs and how an admin makes one.
    static func roleHint(for action: MutationAction) -> String {
        let role = neededRole(for: action).rawValue
        return "this needs an \(role) token; ask an admin for one (goald token create --name NAME --role \(role))"
    }

    /// `message` with every player and match the replica knows named as people name them (a player's quoted name,
    /// a match's `3f2a9c1e (Ada vs Bea)`; full or short ids, `EntityNaming`), escaped for the terminal.
    static func naming(_ message: String, in replica: ReplicaState) -> String {
        TerminalText.escape(EntityNaming.naming(message, in: replica))
    }
}
