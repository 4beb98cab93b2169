import GoalModel
import GoalStore
import GoalWire
import Testing

/// Reads a daemon's durable log back, to check what was committed (and how many times) independently of any
/// client.
struct StoredLog {
    let changesets: [Changeset]

    /// Every changeset in `storage`'s log, in order.
    init(_ storage: any LeagueStorage) throws {
        let head = try storage.logBounds().head
        var changesets: [Changeset] = []
        var after: Revision = 0
        while after < head {
            let page = try storage.backlog(after: after, upTo: head, limit: 500)
            guard let last = page.last else { break }
            for frame in page {
                guard case .changeset(let changeset) = try ServerMessage.decode(frame.bytes) else {
                    Issue.record("log frame \(frame.revision) is not a changeset")
                    continue
                }
                changesets.append(changeset)
            }
            after = last.revision
        }
        self.changesets = changesets
    }

    /// How many commits carry this mutation id.
    func commits(of id: MutationID) -> [Changeset] {
        changesets.filter { $0.mutationID == id }
    }
}
