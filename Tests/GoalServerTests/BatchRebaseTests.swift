import GoalModel
import GoalStore
import GoalTestSlots
import GoalWire
import Testing

@testable import GoalServer

/// A batch a shared store refused is decided again by the writer alone (`BatchRebase`, issue 36 point 6: the writer
/// never re-enters the engine): on top of what the other nodes wrote, in the same order and at the same times, as one
/// node deciding every mutation in that order would.
@Suite("BatchRebase: a refused batch decided again without the engine", .slotted)
struct BatchRebaseTests {
    private static let time = Timestamp(millisecondsSince1970: 1_767_225_600_000)

    private static func request(_ name: String, instance: String, seq: UInt64) -> TimedRequest {
        let mutation = Mutation(
            id: MutationID(instance: ClientInstanceID(instance)!, seq: seq),
            base: 0,
            action: .createPlayer(id: PlayerID(), name: name)
        )
        let request = MutationRequest(
            mutation: mutation,
            author: instance,
            role: .editor,
            replyTo: ReplyAddress(shard: 0, session: 1)
        )
        return TimedRequest(request: request, time: time)
    }

    /// `requests` decided on `durable` and closed, as the engine hands a batch to the writer.
    private static func closed(_ requests: [TimedRequest], on durable: DurableView) -> ClosedBatch {
        var decider = BatchDecider(state: durable.state, headDigest: durable.digest, clientRecordPolicy: .default)
        var open = OpenBatch()
        for timed in requests { _ = decider.decide(timed, into: &open) }
        return decider.close(&open)
    }

    /// What another node wrote on `durable`: `requests` decided there, as the store hands them back.
    private static func foreign(_ requests: [TimedRequest], on durable: DurableView) -> ForeignChanges {
        let batch = closed(requests, on: durable)
        return ForeignChanges(
            commits: batch.storage.commits,
            clientRecords: batch.storage.clientRecords,
            head: StoreHead(revision: batch.stateAfter.revision, version: 1)
        )
    }

    @Test("the batch follows the others' commits: revisions, digest chain and answers move past them")
    func followsForeignCommits() throws {
        let durable = DurableView(state: LeagueState(), digest: .genesis)
        let ours = Self.closed([Self.request("bea", instance: "node-a", seq: 1)], on: durable)
        let theirs = Self.foreign([Self.request("cy", instance: "node-b", seq: 1)], on: durable)
        #expect(ours.storage.commits.first?.revision == 1)

        var pending = BatchRebase(ours, decidedOn: durable, policy: .default)
        let again = try pending.rebase(onto: theirs)

        #expect(again.commits.map(\.revision) == [2])
        #expect(pending.batch.stateAfter.revision == 2)
        #expect(pending.batch.stateAfter.players.count == 2)
        let last = try #require(theirs.commits.last)
        #expect(pending.durable.digest == last.changeset.digest, "decided on the others' head")
        let ourCommit = try #require(again.commits.first)
        let frame = ChangesetFrame.encode(ourCommit.changeset, previousDigest: last.changeset.digest)
        #expect(frame.digest == ourCommit.changeset.digest, "the digest chains onto the others' commit")
        #expect(pending.batch.digestAfter == ourCommit.changeset.digest)
        #expect(pending.batch.replies.map(\.after) == [2])
        #expect(pending.batch.requests.map(\.time) == [Self.time], "each mutation keeps its first decision time")
        #expect(pending.absorbed.count == 1)
        #expect(pending.absorbed.first?.published.storage.commits == theirs.commits)
    }

    @Test("a mutation the others' commits now refuse is answered as one node deciding both in order would")
    func refusedAfterForeignCommit() throws {
        let durable = DurableView(state: LeagueState(), digest: .genesis)
        let ours = Self.closed([Self.request("cy", instance: "node-a", seq: 1)], on: durable)
        let theirs = Self.foreign([Self.request("cy", instance: "node-b", seq: 1)], on: durable)
        guard case .ack = ours.replies.first?.message else {
            Issue.record("the batch before the rebase should commit")
            return
        }

        var pending = BatchRebase(ours, decidedOn: durable, policy: .default)
        let again = try pending.rebase(onto: theirs)

        #expect(again.commits.isEmpty, "the name is taken now")
        #expect(again.clientRecords.map(\.instance) == [ClientInstanceID("node-a")!], "the refusal is recorded")
        guard case .rejected(seq: 1, _) = pending.batch.replies.first?.message else {
            Issue.record("expected a rejection, got \(String(describing: pending.batch.replies.first?.message))")
            return
        }
        #expect(pending.batch.stateAfter.players.count == 1)
    }

    @Test("each refusal brings what was written after the previous one; the batch is decided on all of them")
    func severalRefusals() throws {
        let base = DurableView(state: LeagueState(), digest: .genesis)
        let ours = Self.closed([Self.request("dee", instance: "node-a", seq: 1)], on: base)
        let first = Self.foreign([Self.request("bea", instance: "node-b", seq: 1)], on: base)
        var pending = BatchRebase(ours, decidedOn: base, policy: .default)
        _ = try pending.rebase(onto: first)
        let second = Self.foreign([Self.request("cy", instance: "node-c", seq: 1)], on: pending.durable)

        let again = try pending.rebase(onto: second)

        #expect(again.commits.map(\.revision) == [3])
        #expect(pending.absorbed.map(\.changes.head.revision) == [1, 2])
        #expect(pending.durable.state.revision == 2)
    }

    @Test("a foreign changeset that does not apply here is a typed inconsistency, and nothing is absorbed")
    func inconsistentForeignChanges() throws {
        let durable = DurableView(state: LeagueState(), digest: .genesis)
        let ours = Self.closed([Self.request("bea", instance: "node-a", seq: 1)], on: durable)
        // Revision 2 on a store at revision 0: it cannot apply.
        let skipped = Self.foreign(
            [Self.request("cy", instance: "node-b", seq: 1), Self.request("dee", instance: "node-b", seq: 2)],
            on: durable
        )
        let broken = ForeignChanges(commits: Array(skipped.commits.dropFirst()), clientRecords: [], head: skipped.head)
        var pending = BatchRebase(ours, decidedOn: durable, policy: .default)
        #expect(throws: StorageError.self) { try pending.rebase(onto: broken) }
        #expect(pending.absorbed.isEmpty)
        #expect(pending.batch.storage.commits.map(\.revision) == [1])
    }
}
