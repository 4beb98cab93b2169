import Foundation
import GoalClient
import GoalModel
import GoalReactive
import GoalTestSlots
import GoalWire
import Testing

@Suite("GoalClient outbox: minted ids, re-sends with the same ids, pacing, answers", .slotted)
struct ClientOutboxTests {
    /// Records every event of a mutation producer.
    final class Recorder {
        var values: [MutationAck] = []
        var errors: [MutationError] = []
        var completed = 0

        func start(_ producer: SignalProducer<MutationAck, MutationError>) {
            producer.start { [self] event in
                switch event {
                case .value(let ack): values.append(ack)
                case .failed(let error): errors.append(error)
                case .completed: completed += 1
                case .interrupted: break
                }
            }
        }
    }

    let playerA = PlayerID()
    let playerB = PlayerID()

    @Test func idsAreMintedWhenCreatedAndResentUnchangedAfterAReconnect() {
        let h = ClientHarness(jitter: [0])
        let first = h.client.submit(.createPlayer(id: playerA, name: "Ada"), base: 0)
        let second = h.client.submit(.createPlayer(id: playerB, name: "Bo"), base: 0)
        h.scheduler.advance()
        let mutationA = Mutation(
            id: MutationID(instance: h.instance, seq: 1),
            base: 0,
            action: .createPlayer(id: playerA, name: "Ada")
        )
        let mutationB = Mutation(
            id: MutationID(instance: h.instance, seq: 2),
            base: 0,
            action: .createPlayer(id: playerB, name: "Bo")
        )
        #expect(
            h.client.pendingMutations.value == [
                PendingMutation(mutation: mutationA, isSent: false),
                PendingMutation(mutation: mutationB, isSent: false),
            ]
        )

        h.start()
        h.deliver(.connected)
        #expect(h.transport.last.sentSeqs == [], "nothing is sent before welcome")
        h.deliver(.welcome(h.welcome(mode: .live, head: 0, digest: .genesis)))
        #expect(h.transport.last.sentSeqs == [1, 2])
        #expect(h.client.pendingMutations.value.map(\.isSent) == [true, true])

        h.deliver(.closed(code: 1006, reason: "dropped"))
        #expect(h.client.pendingMutations.value.map(\.isSent) == [false, false])
        h.scheduler.advance(by: 0.5)
        h.connect(mode: .live, head: 0)
        #expect(h.transport.connections.count == 2)
        #expect(h.transport.last.sent.dropFirst() == [.mutate(.init(mutationA)), .mutate(.init(mutationB))])

        let a = Recorder()
        let b = Recorder()
        a.start(first)
        b.start(second)
        h.deliver(.ack(seq: 1, revision: 1, noop: false))
        let conflict = MutationRejection(code: .conflict, message: "changed", fields: ["name"])
        h.deliver(.rejected(seq: 2, conflict))
        #expect(a.values == [MutationAck(id: mutationA.id, revision: 1, noop: false)])
        #expect(a.completed == 1)
        #expect(b.errors == [MutationError(.rejected(conflict), id: mutationB.id)])
        #expect(b.errors.first?.code == .conflict)
        #expect(h.client.pendingMutations.value == [])
        #expect(
            h.pending.map { $0.map(\.isSent) } == [
                [false], [false, false], [true, true], [false, false], [true, true], [true], [],
            ],
            "queued, sent, marked unsent by the drop, re-sent, answered one by one"
        )
        #expect(h.pending.allSatisfy { $0.map(\.id.seq) == Array([1, 2].prefix($0.count)) || $0.map(\.id.seq) == [2] })
    }

    @Test func startingAMutationProducerTwiceSendsItOnceAndReplaysTheAnswer() {
        let h = ClientHarness()
        h.start()
        h.connect(mode: .live, head: 0)
        let producer = h.client.submit(.createPlayer(id: playerA, name: "Ada"), base: 0)
        let early = Recorder()
        early.start(producer)
        early.start(producer)
        h.scheduler.advance()
        #expect(h.transport.last.sentSeqs == [1])
        h.deliver(.ack(seq: 1, revision: 1, noop: true))
        let late = Recorder()
        late.start(producer)
        let ack = MutationAck(id: MutationID(instance: h.instance, seq: 1), revision: 1, noop: true)
        #expect(early.values == [ack, ack])
        #expect(late.values == [ack])
        #expect(h.transport.last.sentSeqs == [1])
        h.deliver(.ack(seq: 1, revision: 1, noop: true))
        #expect(early.values.count == 2, "a second answer for the same seq is ignored")
    }

    @Test func rateLimitedHoldsEverySendForRetryAfterThenResendsTheSameId() {
        let h = ClientHarness()
        h.start()
        h.connect(mode: .live, head: 0)
        _ = h.client.submit(.createPlayer(id: playerA, name: "Ada"), base: 0)
        h.scheduler.advance()
        #expect(h.transport.last.sentSeqs == [1])
        h.deliver(.rateLimited(seq: 1, retryAfterMilliseconds: 1500))
        #expect(h.client.pendingMutations.value.map(\.isSent) == [false])
        _ = h.client.submit(.createPlayer(id: playerB, name: "Bo"), base: 0)
        h.scheduler.advance(by: 1.499)
        #expect(h.transport.last.sentSeqs == [1], "nothing goes out while paced")
        h.scheduler.advance(by: 0.001)
        #expect(h.transport.last.sentSeqs == [1, 1, 2])
        #expect(h.client.pendingMutations.value.map(\.isSent) == [true, true])
    }

    @Test func overloadedPausesSendsToo() {
        let h = ClientHarness()
        h.start()
        h.connect(mode: .live, head: 0)
        h.deliver(.overloaded(seq: nil, retryAfterMilliseconds: 200))
        _ = h.client.submit(.createPlayer(id: playerA, name: "Ada"), base: 0)
        h.scheduler.advance(by: 0.1)
        #expect(h.transport.last.sentSeqs == [])
        h.scheduler.advance(by: 0.1)
        #expect(h.transport.last.sentSeqs == [1])
    }

    @Test func anOverloadedMutationIsResentWithItsIdAfterTheDelayAndAnsweredOnce() {
        let h = ClientHarness()
        h.start()
        h.connect(mode: .live, head: 0)
        let recorder = Recorder()
        recorder.start(h.client.submit(.createPlayer(id: playerA, name: "Ada"), base: 0))
        h.scheduler.advance()
        #expect(h.transport.last.sentSeqs == [1])
        h.deliver(.overloaded(seq: 1, retryAfterMilliseconds: 300))
        #expect(h.client.pendingMutations.value.map(\.isSent) == [false], "not applied: waiting to be re-sent")
        h.scheduler.advance(by: 0.299)
        #expect(h.transport.last.sentSeqs == [1])
        h.scheduler.advance(by: 0.001)
        #expect(h.transport.last.sentSeqs == [1, 1], "the same id again")
        h.deliver(.ack(seq: 1, revision: 1, noop: false))
        #expect(
            recorder.values == [MutationAck(id: MutationID(instance: h.instance, seq: 1), revision: 1, noop: false)]
        )
        #expect(h.client.pendingMutations.value.isEmpty)
    }

    @Test func noMutationGoesOutKOrMoreAboveTheOldestUnanswered() {
        let h = ClientHarness()
        h.start()
        h.connect(mode: .live, head: 0)
        for index in 0..<40 {
            _ = h.client.submit(.createPlayer(id: PlayerID(), name: "P\(index)"), base: 0)
        }
        h.scheduler.advance()
        #expect(h.transport.last.sentSeqs == Array(1...32), "seqs 33… wait: 33 − 1 = K")
        h.deliver(.ack(seq: 2, revision: 1, noop: false))
        #expect(h.transport.last.sentSeqs == Array(1...32), "the oldest unanswered is still 1")
        h.deliver(.ack(seq: 1, revision: 2, noop: false))
        #expect(h.transport.last.sentSeqs == Array(1...34), "the window moved past 1 and 2")
    }

    /// PROTOCOL.md §6: the server remembers an instance at least 7 days after its last recorded result, so a
    /// mutation is never sent 7 days or more after its first send; its outcome is unknown.
    @Test func aMutationFirstSentSevenDaysAgoIsNotSentAgainAndFailsAsExpired() {
        let h = ClientHarness(jitter: [0])
        h.start()
        h.connect(mode: .live, head: 0)
        let old = Recorder()
        old.start(h.client.submit(.createPlayer(id: playerA, name: "Ada"), base: 0))
        h.scheduler.advance()
        #expect(h.transport.last.sentSeqs == [1])
        h.deliver(.closed(code: 1006, reason: "dropped"))

        h.scheduler.advance(by: 0.5)
        h.connect(mode: .live, head: 0)
        #expect(h.transport.last.sentSeqs == [1], "re-sent within 7 days of its first send")
        h.deliver(.closed(code: 1006, reason: "dropped"))

        h.scheduler.advance(by: 7 * 86_400 - 0.5)
        let fresh = Recorder()
        fresh.start(h.client.submit(.createPlayer(id: playerB, name: "Bo"), base: 0))
        h.connect(mode: .live, head: 0)
        #expect(h.transport.last.sentSeqs == [2], "seq 1 is not sent again; seq 2 was never sent")
        #expect(old.errors == [MutationError(.expired, id: MutationID(instance: h.instance, seq: 1))])
        #expect(old.errors.first?.description.contains("outcome of mutation") == true)
        #expect(h.client.pendingMutations.value.map(\.mutation.id.seq) == [2])
        h.deliver(.ack(seq: 2, revision: 1, noop: false))
        #expect(fresh.values.map(\.revision) == [1])
    }

    @Test func aTerminalStopFailsQueuedMutationsSayingWhetherTheyWereSent() {
        let h = ClientHarness()
        h.start()
        h.connect(mode: .live, head: 0)
        let sent = Recorder()
        sent.start(h.client.submit(.createPlayer(id: playerA, name: "Ada"), base: 0))
        h.scheduler.advance()
        h.deliver(.error(code: .tokenRevoked, message: "the token was revoked"))
        h.deliver(.closed(code: 4403, reason: ""))
        let reason = StopReason.terminal(code: .tokenRevoked, message: "the token was revoked")
        #expect(h.statuses.last == .stopped(reason))
        #expect(
            sent.errors == [
                MutationError(.stopped(reason, wasSent: true), id: MutationID(instance: h.instance, seq: 1))
            ]
        )
        let late = Recorder()
        late.start(h.client.submit(.createPlayer(id: playerB, name: "Bo"), base: 0))
        h.scheduler.advance()
        #expect(
            late.errors == [
                MutationError(.stopped(reason, wasSent: false), id: MutationID(instance: h.instance, seq: 2))
            ]
        )
        #expect(h.client.pendingMutations.value == [])
    }
}
