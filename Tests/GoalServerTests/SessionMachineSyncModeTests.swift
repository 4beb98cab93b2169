import GoalModel
import GoalStore
import GoalTestSlots
import GoalWire
import NIOCore
import NIOWebSocket
import Testing

@testable import GoalServer

/// The sync mode a hello gets (docs/PROTOCOL.md §3 "Resume rules") and a backlog session's way from welcome to
/// live, on `SessionMachine` directly: no socket, no daemon, no clock.
@Suite("the session machine's sync mode: live, backlog or snapshot, and catching up to live", .slotted)
struct SessionMachineSyncModeTests: SessionMachineFixtures {
    typealias Hello = SessionMachineHelloTests

    /// One hello against a log that keeps (oldest…boundsHead], an engine durable at `durable` and a shard at `head`.
    struct Case: Sendable, CustomTestStringConvertible {
        let testDescription: String
        var since: Revision?
        var epoch: LeagueEpoch? = LeagueEpoch(rawValue: "epoch")
        /// The client's d_since and the store's (by the revision they hash; nil: absent).
        var digest: UInt8?
        var stored: UInt8?
        var stream = ClientMessage.StreamSelection.all
        var oldest: Revision? = 3
        var boundsHead: Revision = 10
        var durable: Revision = 10
        var head: Revision = 10
        let mode: ServerMessage.SyncMode
    }

    static let cases: [Case] = [
        Case(testDescription: "acks: live, whatever it resumes from", since: 1, epoch: nil, stream: .acks, mode: .live),
        Case(
            testDescription: "no since, empty league: live",
            oldest: nil,
            boundsHead: 0,
            durable: 0,
            head: 0,
            mode: .live
        ),
        Case(testDescription: "no since, league not empty: snapshot", mode: .snapshot),
        Case(testDescription: "since = head, right digest: live", since: 10, digest: 10, stored: 10, mode: .live),
        Case(testDescription: "since = head, no epoch or digest sent: live", since: 10, epoch: nil, mode: .live),
        Case(
            testDescription: "since in the log, right digest: backlog",
            since: 5,
            digest: 5,
            stored: 5,
            mode: .backlog
        ),
        Case(
            testDescription: "since just before the oldest kept: backlog",
            since: 2,
            digest: 2,
            stored: 2,
            mode: .backlog
        ),
        Case(testDescription: "since older than the retention: snapshot", since: 1, mode: .snapshot),
        Case(
            testDescription: "another epoch: snapshot",
            since: 5,
            epoch: LeagueEpoch(rawValue: "restored"),
            digest: 5,
            stored: 5,
            mode: .snapshot
        ),
        Case(testDescription: "a wrong digest: snapshot", since: 5, digest: 6, stored: 5, mode: .snapshot),
        Case(
            testDescription: "since = head, wrong digest: snapshot",
            since: 10,
            digest: 9,
            stored: 10,
            mode: .snapshot
        ),
        Case(testDescription: "since beyond the durable head: snapshot", since: 11, mode: .snapshot),
        Case(
            testDescription: "since durable after the bounds were read, at the shard's head: live",
            since: 12,
            durable: 12,
            head: 12,
            mode: .live
        ),
        Case(
            testDescription: "since durable after the bounds were read, behind the shard's head: backlog",
            since: 11,
            durable: 12,
            head: 12,
            mode: .backlog
        ),
    ]

    @Test("the sync mode follows from since, epoch, digest, the retained log and the heads", arguments: cases)
    func syncMode(_ test: Case) {
        let machine = Self.machine()
        let hello = Hello.hello(
            since: test.since,
            epoch: test.epoch,
            digest: test.digest.map(Hello.digest),
            stream: test.stream
        )
        let facts = Hello.facts(
            oldest: test.oldest,
            head: test.boundsHead,
            digestAtSince: test.stored.map(Hello.digest)
        )
        #expect(machine.syncMode(for: hello, head: test.head, facts: facts, durableRevision: test.durable) == test.mode)
    }

    @Test("a backlog session: pages (since, head] while writable, then what became durable meanwhile, then live")
    func backlogToLive() {
        let hello = Hello.hello(since: 5, epoch: Self.epoch, digest: Hello.digest(5))
        let facts = Hello.facts(digestAtSince: Hello.digest(5))
        var machine = Self.machine()
        _ = machine.frameRead(opcode: .text, data: Hello.frame(hello), now: Self.at(milliseconds: 0))
        _ = machine.helloRead(.success(facts), hello: hello, durableRevision: 10)
        _ = machine.admitted(.admitted(replacing: nil), token: Hello.alice, hello: hello, facts: facts)
        _ = Hello.join(&machine, hello, facts, at: 0)
        #expect(machine.reply(Hello.textFrame("ack 1")).isEmpty, "held while catching up")
        guard case .wait = machine.catchUpStep(writable: false, loopHead: 10) else {
            Issue.record("nothing is read while the socket is not writable")
            return
        }
        guard case .perform(.readBacklogPage(after: 5, upTo: 10)) = machine.catchUpStep(writable: true, loopHead: 10)
        else {
            Issue.record("expected the page (5, 10]")
            return
        }
        let first = machine.backlogPageRead(.success((Hello.textFrame("6…10"), 10)), after: 5)
        #expect(Self.describe(first) == ["sendCatchUp 6…10", "pumpCatchUp", "flush"])
        guard case .perform(.readBacklogPage(after: 10, upTo: 11)) = machine.catchUpStep(writable: true, loopHead: 11)
        else {
            Issue.record("expected the page (10, 11]: 11 became durable while the backlog was sent")
            return
        }
        #expect(machine.stream?.isLive == false)
        _ = machine.backlogPageRead(.success((Hello.textFrame("11"), 11)), after: 10)
        guard case .write(let writes, thenFlush: true) = machine.catchUpStep(writable: true, loopHead: 11) else {
            Issue.record("expected the switch to live")
            return
        }
        let sent = writes.map { write -> String in
            guard case .write(let frame, _) = machine.send(write, writable: true) else { return "not written" }
            return Self.payload(frame)
        }
        #expect(sent == [Self.json(.caughtUp(head: 11)), "ack 1"])
        #expect(machine.stream?.isLive == true)
        #expect(machine.sentRevision == 11)
    }
}
