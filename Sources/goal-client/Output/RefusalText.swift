import Foundation
import GoalClient
import GoalModel

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

    /// `message` with every player id the replica knows written as the player's quoted name, and every match id as
    /// its short id; escaped for the terminal.
    static func naming(_ message: String, in replica: ReplicaState) -> String {
        var text = message
        for player in replica.players.values where text.contains(player.id.description) {
            text = text.replacingOccurrences(of: player.id.description, with: "\"\(player.name)\"")
        }
        for match in replica.matches.values where text.contains(match.id.description) {
            text = text.replacingOccurrences(of: match.id.description, with: match.id.shortID)
        }
        return TerminalText.escape(text)
    }
}
