import Foundation
import GoalModel
import GoalStore
import GoalWire

/// Writes a league straight into a store before a daemon starts, the way the daemon's engine and writer would:
/// every mutation goes through GoalModel's `ConflictEngine`, every commit gets a GoalWire frame with its chained
/// digest, and batches carry the seeding instance's exactly-once record.
///
/// Value type; used by one test at a time.
struct LeagueSeed {
    static let instance = ClientInstanceID("live-seeder")!

    private(set) var state = LeagueState()
    private(set) var digest = Digest.genesis
    private var commits: [LoggedCommit] = []
    private var seq: UInt64 = 0

    /// Commits one mutation (it must commit: seeding is not a test of the engine).
    mutating func commit(_ action: MutationAction) {
        seq += 1
        let mutation = Mutation(
            id: MutationID(instance: LeagueSeed.instance, seq: seq),
            base: state.revision,
            action: action
        )
        guard case .commit(let commit) = ConflictEngine.apply(mutation, author: "seeder", to: &state) else {
            preconditionFailure("seed mutation \(seq) did not commit")
        }
        let time = Timestamp(millisecondsSince1970: 1_767_225_600_000 + Int64(commit.revision) * 1000)
        let frame = ChangesetFrame.encode(commit.changeset(time: time, digest: .genesis), previousDigest: digest)
        digest = frame.digest
        commits.append(LoggedCommit(changeset: commit.changeset(time: time, digest: frame.digest), frame: frame.bytes))
    }

    /// Appends what was committed since the last call to `storage`, in batches of at most `batchSize`.
    mutating func write(to storage: any LeagueStorage, batchSize: Int = 500) throws {
        var start = 0
        while start < commits.count {
            let end = min(start + batchSize, commits.count)
            let records = end == commits.count ? [state.clientRecord(for: LeagueSeed.instance)].compactMap { $0 } : []
            try storage.append(StorageBatch(commits: Array(commits[start..<end]), clientRecords: records))
            start = end
        }
        commits = []
    }
}

/// The small league most live tests start from: players Ann, Ben, Cat and Dan; the older match
/// [Ann, Ben] vs [Cat, Dan] 2 : 1 and the newer (row 0) [Ann, Cat] vs [Ben, Dan] 0 : 0. Head revision 6.
struct SmallLeague {
    let ann = PlayerID()
    let ben = PlayerID()
    let cat = PlayerID()
    let dan = PlayerID()
    /// Row 1 of the match list.
    let older = MatchID()
    /// Row 0 of the match list.
    let newer = MatchID()
    let head: Revision = 6

    /// Writes the league into `storage`.
    func write(to storage: any LeagueStorage) throws {
        var seed = LeagueSeed()
        seed.commit(.createPlayer(id: ann, name: "Ann"))
        seed.commit(.createPlayer(id: ben, name: "Ben"))
        seed.commit(.createPlayer(id: cat, name: "Cat"))
        seed.commit(.createPlayer(id: dan, name: "Dan"))
        seed.commit(
            .createMatch(id: older, homePlayers: [ann, ben], awayPlayers: [cat, dan], homeGoals: 2, awayGoals: 1)
        )
        seed.commit(
            .createMatch(id: newer, homePlayers: [ann, cat], awayPlayers: [ben, dan], homeGoals: 0, awayGoals: 0)
        )
        try seed.write(to: storage)
    }

    /// A fresh in-memory store holding the league.
    func storage() throws -> InMemoryLeagueStorage {
        let storage = InMemoryLeagueStorage()
        try write(to: storage)
        return storage
    }
}
