import GoalClient
import GoalModel

extension MutationError {
    /// The alert text for this error, worded as `goal-client` words a refusal: a conflict says which fields
    /// someone else changed and what they hold now (`ConflictAlert`); any other rejection is
    /// "refused (code): message" (an unauthorized one adds what to do); an error that is not a rejection (the
    /// client stopped, the outcome is unknown) its description. Players and matches the message names by id are
    /// named as people name them (`EntityNaming`).
    ///
    /// - Parameters:
    ///   - replica: Where player names come from.
    /// - Returns: One line for the UI's banner.
    func alertMessage(replica: ReplicaState) -> String {
        guard let rejection else { return EntityNaming.naming(description, in: replica) }
        if let alert = ConflictAlert(rejection, replica: replica) { return alert.message }
        let message = EntityNaming.naming(rejection.message, in: replica)
        if rejection.code == .unauthorized {
            return "refused (unauthorized): \(message); ask an admin for an editor token"
        }
        return "refused (\(rejection.code.rawValue)): \(message)"
    }
}
