import GoalClient
import GoalModel

extension MutationError {
    /// The alert text for this error: a conflict says which fields someone else changed and what they hold now
    /// (`ConflictAlert`); any other error its description.
    ///
    /// - Parameters:
    ///   - replica: Where player names come from.
    func alertMessage(replica: ReplicaState) -> String {
        if let rejection, let alert = ConflictAlert(rejection, replica: replica) { return alert.message }
        return description
    }
}
