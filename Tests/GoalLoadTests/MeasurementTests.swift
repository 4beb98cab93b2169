import Foundation
import GoalClient
import GoalModel
import GoalTestSlots
import GoalWire
import Histogram
import Testing

@testable import goal_load

@Suite("Measurements and the convergence verdict", .slotted)
struct MeasurementTests {
    @Test func procStatGivesUserPlusSystemTime() throws {
        // pid (comm with ) spaces) state ppid … utime=250 stime=50 (fields 14 and 15).
        let stat = "42 (goal d) x) S 1 42 42 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 3 0 100 1000 200"
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        let seconds = try #require(ProcessStats.cpuSeconds(stat: stat))
        #expect(abs(seconds - 300 / ticks) < 1e-9)
        #expect(ProcessStats.cpuSeconds(stat: "garbage") == nil)
    }

    @Test func procStatusGivesResidentBytes() {
        let status = "Name:\tgoald\nVmPeak:\t  999 kB\nVmRSS:\t   2048 kB\nThreads:\t3\n"
        #expect(ProcessStats.residentBytes(status: status) == 2048 * 1024)
        #expect(ProcessStats.residentBytes(status: "Name: x\n") == nil)
    }

    @Test func ownProcessIsMeasured() {
        let sample = ProcessStats.current()
        #expect(sample.rssBytes > 0)
        #expect(sample.cpuSeconds >= 0)
    }

    @Test func latencyShardsMergeIntoOneHistogram() {
        let recorder = LatencyRecorder(shards: 4)
        for index in 0..<100 { recorder.record(nanoseconds: UInt64(index + 1) * 1_000_000, shard: index) }
        let merged = recorder.merged()
        #expect(merged.totalCount == 100)
        #expect(merged.valueAtPercentile(50) >= 49_000 && merged.valueAtPercentile(50) <= 51_000)
        #expect(merged.max >= 99_000)
    }

    @Test func adjustmentsAreBalancedAndConflictsUseTheSetupBase() {
        let plan = WriterPlan(
            players: [PlayerID(), PlayerID()],
            matches: [MatchID()],
            ownPlayer: PlayerID(),
            setupRevision: 3,
            mix: MutationMix(adjust: 1),
            tag: "t"
        )
        var source = MutationSource(plan: plan, writerIndex: 0)
        for _ in 0..<10 {
            let (up, _, _) = source.next(knownRevision: 50)
            let (down, base, _) = source.next(knownRevision: 51)
            guard case .adjustGoals(let id, let side, 1) = up, case .adjustGoals(id, side, -1) = down else {
                Issue.record("expected +1 then −1 on the same match and side, got \(up) then \(down)")
                return
            }
            #expect(base == 51)
        }
        var conflicting = MutationSource(
            plan: WriterPlan(matches: [MatchID()], setupRevision: 3, mix: MutationMix(conflict: 1)),
            writerIndex: 1
        )
        let (action, base, kind) = conflicting.next(knownRevision: 80)
        #expect(kind == .conflict)
        #expect(base == 3)
        if case .updateMatch(_, let update) = action {
            #expect(update.homeGoals != nil)
        } else {
            Issue.record("not an edit")
        }
    }

    private func subscriber(
        revision: UInt64,
        digest: Digest,
        replica: ReplicaState? = nil,
        problems: Int = 0
    ) -> SubscriberSnapshot {
        SubscriberSnapshot(
            phase: .live,
            revision: revision,
            digest: digest,
            deliveries: 0,
            bytes: 0,
            reconnects: 0,
            failedAttempts: 0,
            sheddings: 0,
            everConnected: true,
            problems: Array(repeating: "gap", count: problems),
            problemCount: problems,
            replica: replica,
            catchUpSeconds: nil
        )
    }

    private func view(head: UInt64, digest: Digest) -> ServerView {
        let snapshot = Snapshot(
            revision: head,
            epoch: LeagueEpoch(rawValue: "e1"),
            digest: digest,
            players: [],
            matches: [],
            ratings: []
        )
        return ServerView(head: head, headDigest: digest, epoch: LeagueEpoch(rawValue: "e1"), snapshot: snapshot)
    }

    @Test func convergedWhenEverySubscriberHoldsTheHeadDigest() {
        let digest = ChangesetFrame.digest(previous: .genesis, payload: Array("x".utf8))
        let server = view(head: 5, digest: digest)
        let replica = ReplicaState(server.snapshot!)
        let verdict = LoadRunner.verdict(
            subscribers: [
                subscriber(revision: 5, digest: digest), subscriber(revision: 5, digest: digest, replica: replica),
            ],
            view: .success(server)
        )
        #expect(verdict.converged)
        #expect(verdict.subscribersAtHead == 2)
        #expect(verdict.sampledReplicasChecked == 1)
    }

    @Test func anyMismatchFailsConvergence() {
        let digest = ChangesetFrame.digest(previous: .genesis, payload: Array("x".utf8))
        let other = ChangesetFrame.digest(previous: .genesis, payload: Array("y".utf8))
        let server = view(head: 5, digest: digest)
        let cases: [SubscriberSnapshot] = [
            subscriber(revision: 5, digest: other),
            subscriber(revision: 4, digest: digest),
            subscriber(revision: 5, digest: digest, problems: 1),
            subscriber(revision: 5, digest: digest, replica: ReplicaState()),
        ]
        for bad in cases {
            let verdict = LoadRunner.verdict(
                subscribers: [subscriber(revision: 5, digest: digest), bad],
                view: .success(server)
            )
            #expect(!verdict.converged)
            #expect(!verdict.problems.isEmpty)
        }
        let unreachable = LoadRunner.verdict(subscribers: [], view: .failure(.connect("down")))
        #expect(!unreachable.converged)
    }

    @Test("goal-load at 90 % of a core or more is flagged as possibly bounding the figures")
    func loadGeneratorLimit() {
        func cpu(_ percent: Double) -> LoadReport.CPU {
            LoadReport.CPU(seconds: 1, percentOfCore: percent, rssBytes: 0, microsecondsPerDelivery: nil)
        }
        #expect(cpu(99.8).isAtLoadGeneratorLimit)
        #expect(cpu(90).isAtLoadGeneratorLimit)
        #expect(!cpu(89.9).isAtLoadGeneratorLimit)
        #expect(!cpu(48).isAtLoadGeneratorLimit)
    }
}
