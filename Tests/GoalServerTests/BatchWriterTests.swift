import GoalLocking
import GoalModel
import GoalStore
import GoalTestSlots
import GoalTestSupport
import GoalWire
import Testing

@testable import GoalServer

/// The writer's seam with the store (issue 15 point 7): a batch written again after an attempt that committed and
/// lost its connection is taken as written; any other refusal stands.
@Suite("BatchWriter", .slotted)
struct BatchWriterTests {
    /// A batch of `names` created on top of `state`, as the engine closes it.
    private func batch(_ names: [String], on state: inout LeagueState, digest: inout Digest) -> ClosedBatch {
        var commits: [LoggedCommit] = []
        for (index, name) in names.enumerated() {
            let mutation = Mutation(
                id: MutationID(instance: ClientInstanceID("writer-test")!, seq: UInt64(state.revision) + 1),
                base: state.revision,
                action: .createPlayer(id: PlayerID(), name: "\(name)\(index)")
            )
            guard case .commit(let commit) = ConflictEngine.apply(mutation, author: "t", to: &state) else {
                continue
            }
            let time = Timestamp(millisecondsSince1970: 1_767_225_600_000)
            let frame = ChangesetFrame.encode(commit.changeset(time: time, digest: .genesis), previousDigest: digest)
            digest = frame.digest
            commits.append(LoggedCommit(changeset: commit.changeset(time: time, digest: digest), frame: frame.bytes))
        }
        return ClosedBatch(
            storage: StorageBatch(commits: commits, clientRecords: Array(state.allClientRecords)),
            stateAfter: state,
            digestAfter: digest,
            replies: [],
            openedAt: .now
        )
    }

    private func write(_ batch: ClosedBatch, with writer: BatchWriter) async -> Result<Void, StorageError> {
        let written = AsyncLatch<Result<Void, StorageError>>()
        let pending = BatchRebase(
            batch,
            decidedOn: DurableView(state: LeagueState(), digest: .genesis),
            policy: .default
        )
        writer.write(pending, onto: StoreHead(revision: 0, version: 0)) { result, _ in
            written.open(result.map { _ in () })
        }
        return await written.wait()
    }

    @Test("the same batch written twice succeeds twice and is stored once; a different batch at its revisions fails")
    func rewriteOfAStoredBatch() async throws {
        let storage = InMemoryLeagueStorage()
        let writer = BatchWriter(storage: storage)
        var state = LeagueState()
        var digest = Digest.genesis
        let first = batch(["ada", "bea"], on: &state, digest: &digest)
        #expect(try await write(first, with: writer).get() == ())
        #expect(try await write(first, with: writer).get() == (), "an attempt that committed, written again")
        #expect(try storage.logBounds().head == 2)

        var otherState = LeagueState()
        var otherDigest = Digest.genesis
        let other = batch(["cy", "dee"], on: &otherState, digest: &otherDigest)
        guard case .failure(let error) = await write(other, with: writer) else {
            Issue.record("a batch the store does not hold was taken as written")
            return
        }
        #expect(error.code == .revisionGap)
    }
}
