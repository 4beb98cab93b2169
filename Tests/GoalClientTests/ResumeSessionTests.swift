import Foundation
import GoalClient
import GoalModel
import GoalTestSlots
import GoalWire
import Testing

@Suite("ResumeSession: the shared connection-and-resume machine, driven directly", .slotted)
struct ResumeSessionTests {
    let instance = ClientInstanceID.random()
    let start = Date(timeIntervalSince1970: 1_000)
    let d1 = Digest(bytes: [UInt8](repeating: 1, count: 32))!
    let d2 = Digest(bytes: [UInt8](repeating: 2, count: 32))!
    let d3 = Digest(bytes: [UInt8](repeating: 3, count: 32))!

    /// A machine that has connected once and is waiting for the welcome.
    func opened(
        _ position: ResumeSession.Position = .init(),
        policy: BackoffPolicy = .standard
    ) -> (
        ResumeSession, ClientMessage.Hello
    ) {
        var machine = ResumeSession(position: position, policy: policy, idleTimeout: 40)
        #expect(machine.start() == .connect(attempt: 0))
        let hello = machine.connectionOpened(now: start, token: "t", instance: instance)
        return (machine, hello)
    }

    @Test func anEmptyPositionAsksForEverything() {
        let (machine, hello) = opened()
        #expect(hello.since == nil && hello.epoch == nil && hello.digest == nil)
        #expect(hello.clientInstance == instance && hello.token == "t" && hello.stream == .all)
        #expect(machine.phase == .awaitingWelcome)
        #expect(!machine.isAuthenticated)
    }

    @Test func aServerThatRefusesVersion2IsAskedForVersion1NextAndARefusalOf1IsFinal() {
        var (machine, hello) = opened()
        #expect(hello.protocolVersion == 2)
        let retry = machine.connectionClosed(code: .unsupportedProtocolVersion, message: "protocol 2", unit: 0)
        #expect(machine.protocolCeiling == 1)
        guard case .wait = retry else {
            Issue.record("a refused version 2 should be retried, got \(retry)")
            return
        }
        _ = machine.retryTimerFired()
        let second = machine.connectionOpened(now: start, token: "t", instance: instance)
        #expect(second.protocolVersion == 1)
        let final = machine.connectionClosed(code: .unsupportedProtocolVersion, message: "protocol 1", unit: 0)
        guard case .stop = final else {
            Issue.record("a refused version 1 is final, got \(final)")
            return
        }
    }

    @Test func aReaderThatAsksForVersion1GetsIt() {
        var machine = ResumeSession(position: .init(), policy: .standard, idleTimeout: 40)
        _ = machine.start()
        #expect(
            machine.connectionOpened(now: start, token: "t", instance: instance, protocolVersion: 1).protocolVersion
                == 1
        )
    }

    @Test func aLiveWelcomeOfAnEmptyLeagueMakesTheNextHelloResumeFromItsHead() {
        var (machine, _) = opened()
        #expect(
            machine.receive(.welcome(epoch: LeagueEpoch(rawValue: "e1"), head: 0, headDigest: .genesis, mode: .live))
                == .welcomed(mode: .live, live: true, epochChanged: false)
        )
        #expect(machine.receive(.changeset(revision: 1, digest: d1)) == .deliver)
        _ = machine.connectionClosed(code: nil, message: "", unit: 0)
        _ = machine.retryTimerFired()
        let hello = machine.connectionOpened(now: start, token: "t", instance: instance)
        #expect(hello.since == 1 && hello.epoch == LeagueEpoch(rawValue: "e1") && hello.digest == d1)
    }

    @Test func resumesFromSinceEpochAndDigestAndFollowsTheBacklog() {
        var (machine, hello) = opened(.init(since: 1, epoch: LeagueEpoch(rawValue: "e1"), digest: d1))
        #expect(hello.since == 1 && hello.epoch == LeagueEpoch(rawValue: "e1") && hello.digest == d1)
        #expect(
            machine.receive(.welcome(epoch: LeagueEpoch(rawValue: "e1"), head: 3, headDigest: .genesis, mode: .backlog))
                == .welcomed(mode: .backlog, live: false, epochChanged: false)
        )
        #expect(machine.isInBacklog && machine.isAuthenticated)
        #expect(machine.receive(.changeset(revision: 1, digest: d1)) == .duplicate)
        #expect(machine.receive(.changeset(revision: 2, digest: d2)) == .deliver)
        #expect(machine.receive(.caughtUp(head: 3)) == .resync("caught_up at 3 but only r2 arrived"))
        #expect(machine.receive(.changeset(revision: 3, digest: d3)) == .deliver)
        #expect(machine.receive(.caughtUp(head: 3)) == .caughtUp)
        #expect(machine.phase == .live)
        #expect(machine.position == .init(since: 3, epoch: LeagueEpoch(rawValue: "e1"), digest: d3))
        // The next connection resumes exactly after r3.
        _ = machine.connectionClosed(code: .goingAway, message: "", unit: 0)
        _ = machine.retryTimerFired()
        let next = machine.connectionOpened(now: start, token: "t", instance: instance)
        #expect(next.since == 3 && next.epoch == LeagueEpoch(rawValue: "e1") && next.digest == d3)
    }

    @Test func aGapAsksForResyncAndKeepsThePosition() {
        var (machine, _) = opened(.init(since: 1, epoch: LeagueEpoch(rawValue: "e1"), digest: d1))
        _ = machine.receive(.welcome(epoch: LeagueEpoch(rawValue: "e1"), head: 1, headDigest: .genesis, mode: .live))
        #expect(machine.receive(.changeset(revision: 3, digest: d3)) == .resync("gap: r2 expected, r3 arrived"))
        #expect(machine.position == .init(since: 1, epoch: LeagueEpoch(rawValue: "e1"), digest: d1))
        #expect(machine.abandon(reason: "gap", unit: 0) == .wait(attempt: 1, delay: 0.5))
    }

    @Test func anEpochChangeForgetsThePositionAndExpectsASnapshot() {
        var (machine, _) = opened(.init(since: 5, epoch: LeagueEpoch(rawValue: "old"), digest: d1))
        #expect(
            machine.receive(
                .welcome(epoch: LeagueEpoch(rawValue: "new"), head: 2, headDigest: .genesis, mode: .snapshot)
            )
                == .welcomed(mode: .snapshot, live: false, epochChanged: true)
        )
        #expect(machine.position == .init(since: nil, epoch: LeagueEpoch(rawValue: "new"), digest: nil))
        #expect(machine.phase == .awaitingSnapshot)
        #expect(
            machine.receive(.changeset(revision: 1, digest: d1))
                == .resync("a changeset arrived before the stream was ready for it")
        )
        #expect(machine.receive(.snapshotBegin(revision: 2)) == .snapshotStarted)
        #expect(machine.receive(.snapshotEnd(revision: 2, digest: d2)) == .snapshotComplete(revision: 2))
        #expect(machine.position == .init(since: 2, epoch: LeagueEpoch(rawValue: "new"), digest: d2))
        #expect(machine.phase == .live)
        #expect(machine.receive(.changeset(revision: 3, digest: d3)) == .deliver)
    }

    @Test func aBacklogOfAnotherEpochIsRefused() {
        var (machine, _) = opened(.init(since: 5, epoch: LeagueEpoch(rawValue: "old"), digest: d1))
        #expect(
            machine.receive(
                .welcome(epoch: LeagueEpoch(rawValue: "new"), head: 9, headDigest: .genesis, mode: .backlog)
            )
                == .resync("a backlog of another epoch (new) was offered")
        )
    }

    @Test func aDigestMismatchIsAnsweredWithASnapshotThatMovesThePosition() {
        // The server found d_since different from the hello's digest and sent a snapshot at its head.
        var (machine, hello) = opened(.init(since: 4, epoch: LeagueEpoch(rawValue: "e1"), digest: d1))
        #expect(hello.digest == d1)
        #expect(
            machine.receive(
                .welcome(epoch: LeagueEpoch(rawValue: "e1"), head: 4, headDigest: .genesis, mode: .snapshot)
            )
                == .welcomed(mode: .snapshot, live: false, epochChanged: false)
        )
        #expect(machine.receive(.snapshotBegin(revision: 4)) == .snapshotStarted)
        #expect(
            machine.receive(.snapshotEnd(revision: 3, digest: d2))
                == .resync("snapshot_end r3 arrived outside its snapshot")
        )
        #expect(machine.receive(.snapshotEnd(revision: 4, digest: d2)) == .snapshotComplete(revision: 4))
        #expect(machine.position == .init(since: 4, epoch: LeagueEpoch(rawValue: "e1"), digest: d2))
        _ = machine.connectionClosed(code: nil, message: "", unit: 0)
        _ = machine.retryTimerFired()
        #expect(machine.connectionOpened(now: start, token: "t", instance: instance).digest == d2)
    }

    @Test func backoffGrowsUntilAWelcomeAndTerminalCodesStop() {
        let policy = BackoffPolicy(initial: 1, maximum: 5, multiplier: 2, jitter: 0)
        var (machine, _) = opened(policy: policy)
        var delays: [TimeInterval] = []
        for _ in 0..<5 {
            guard case .wait(_, let delay) = machine.connectionFailed(.init(.cannotConnect, "refused"), unit: 0.7)
            else {
                Issue.record("no wait")
                return
            }
            delays.append(delay)
            _ = machine.retryTimerFired()
            _ = machine.connectionOpened(now: start, token: "t", instance: instance)
        }
        #expect(delays == [1, 2, 4, 5, 5])
        _ = machine.receive(.welcome(epoch: LeagueEpoch(rawValue: "e"), head: 0, headDigest: .genesis, mode: .live))
        #expect(machine.connectionClosed(code: .slowConsumer, message: "", unit: 0) == .wait(attempt: 1, delay: 1))
        _ = machine.retryTimerFired()
        _ = machine.connectionOpened(now: start, token: "t", instance: instance)
        #expect(
            machine.connectionClosed(code: .unauthorized, message: "no", unit: 0)
                == .stop(.terminal(code: .unauthorized, message: "no"))
        )
        #expect(machine.phase == .disconnected)
    }

    @Test func silenceBeyondTheIdleTimeoutMeansADeadPeer() {
        var (machine, _) = opened()
        #expect(
            machine.heartbeatCheck(now: start.addingTimeInterval(10))
                == .alive(checkAgainAt: start.addingTimeInterval(40))
        )
        machine.read(now: start.addingTimeInterval(30))
        #expect(
            machine.heartbeatCheck(now: start.addingTimeInterval(40))
                == .alive(checkAgainAt: start.addingTimeInterval(70))
        )
        #expect(machine.heartbeatCheck(now: start.addingTimeInterval(70)) == .dead(reason: "nothing read for 40 s"))
        #expect(machine.abandon(reason: "dead", unit: 0) == .wait(attempt: 1, delay: 0.5))
        #expect(machine.heartbeatCheck(now: start.addingTimeInterval(100)) == .notConnected)
    }

    @Test func streamEventsComeFromDecodedMessages() {
        #expect(ResumeSession.StreamEvent(.caughtUp(head: 7)) == .caughtUp(head: 7))
        #expect(
            ResumeSession.StreamEvent(.snapshotEnd(revision: 2, digest: d2)) == .snapshotEnd(revision: 2, digest: d2)
        )
        #expect(ResumeSession.StreamEvent(.ack(seq: 1, revision: 2, noop: false)) == nil)
    }
}
