import Foundation
import GoalClient
import GoalModel
import GoalTestSlots
import GoalWire
import Testing

/// `ReconnectMachine` over several servers: each loss moves on to the next server at once, and only a full round
/// of failures in a row waits (the backoff counted in rounds); one server behaves as it always did.
@Suite("ReconnectMachine: failover between servers", .slotted)
struct ReconnectMachineFailoverTests {
    enum Event: Equatable {
        case start, authenticated, dropped, failed, failedTLS, closedTerminal, timer, reconnectNow, stop
    }

    typealias Action = ReconnectMachine.Action
    typealias State = ReconnectMachine.State

    /// One row: an event, then the action, the state and the server the machine must show.
    struct Row {
        let event: Event
        let action: Action
        let state: State
        let server: Int
    }

    static let refused = TransportFailure(.cannotConnect, "refused")
    static let untrusted = TransportFailure(.tls, "untrusted")
    static let terminal = StopReason.terminal(code: .unauthorized, message: "unknown token")

    static func apply(_ event: Event, to machine: inout ReconnectMachine) -> Action {
        switch event {
        case .start: return machine.start()
        case .authenticated:
            machine.authenticated()
            return .none
        case .dropped: return machine.connectionClosed(code: nil, message: "", unit: 0)
        case .failed: return machine.connectionFailed(refused, unit: 0)
        case .failedTLS: return machine.connectionFailed(untrusted, unit: 0)
        case .closedTerminal: return machine.connectionClosed(code: .unauthorized, message: "unknown token", unit: 0)
        case .timer: return machine.retryTimerFired()
        case .reconnectNow: return machine.reconnectNow()
        case .stop: return machine.stop()
        }
    }

    /// Plays `rows` on `machine`, checking every row.
    static func play(_ rows: [Row], on machine: ReconnectMachine, sourceLocation: SourceLocation = #_sourceLocation) {
        var machine = machine
        for (number, row) in rows.enumerated() {
            let action = apply(row.event, to: &machine)
            #expect(action == row.action, "row \(number) (\(row.event))", sourceLocation: sourceLocation)
            #expect(machine.state == row.state, "row \(number) (\(row.event))", sourceLocation: sourceLocation)
            #expect(machine.server == row.server, "row \(number) (\(row.event))", sourceLocation: sourceLocation)
        }
    }

    @Test("three servers: a lost connection tries the next two at once, then waits a round's backoff")
    func aFullRoundOfFailuresBacksOff() {
        Self.play(
            [
                Row(event: .start, action: .connect(attempt: 0), state: .connecting(attempt: 0), server: 0),
                Row(event: .authenticated, action: .none, state: .connected, server: 0),
                // Server 0 is lost: servers 1 and 2 are tried at once, without a wait.
                Row(event: .dropped, action: .connect(attempt: 1), state: .connecting(attempt: 1), server: 1),
                Row(event: .failed, action: .connect(attempt: 2), state: .connecting(attempt: 2), server: 2),
                // Every server failed in a row: the first round's backoff (0.5 s), then server 0 again.
                Row(
                    event: .failed,
                    action: .wait(attempt: 3, delay: 0.5),
                    state: .waiting(attempt: 3, delay: 0.5),
                    server: 0
                ),
                Row(event: .timer, action: .connect(attempt: 3), state: .connecting(attempt: 3), server: 0),
                Row(event: .failed, action: .connect(attempt: 4), state: .connecting(attempt: 4), server: 1),
                Row(event: .dropped, action: .connect(attempt: 5), state: .connecting(attempt: 5), server: 2),
                // The second full round waits the second delay (1 s).
                Row(
                    event: .failed,
                    action: .wait(attempt: 6, delay: 1),
                    state: .waiting(attempt: 6, delay: 1),
                    server: 0
                ),
                // A refresh skips the wait and goes to the server due.
                Row(event: .reconnectNow, action: .connect(attempt: 6), state: .connecting(attempt: 6), server: 0),
                Row(event: .failed, action: .connect(attempt: 7), state: .connecting(attempt: 7), server: 1),
                // A welcome on server 1 resets the count: its loss moves on to server 2 at once.
                Row(event: .authenticated, action: .none, state: .connected, server: 1),
                Row(event: .dropped, action: .connect(attempt: 1), state: .connecting(attempt: 1), server: 2),
                Row(event: .failed, action: .connect(attempt: 2), state: .connecting(attempt: 2), server: 0),
                Row(
                    event: .failed,
                    action: .wait(attempt: 3, delay: 0.5),
                    state: .waiting(attempt: 3, delay: 0.5),
                    server: 1
                ),
            ],
            on: ReconnectMachine(serverCount: 3)
        )
    }

    @Test("nodes that welcome and then drop the client: every second loss waits the first delay")
    func flappingNodesAreRetriedNoFasterThanOne() {
        Self.play(
            [
                Row(event: .start, action: .connect(attempt: 0), state: .connecting(attempt: 0), server: 0),
                Row(event: .authenticated, action: .none, state: .connected, server: 0),
                Row(event: .dropped, action: .connect(attempt: 1), state: .connecting(attempt: 1), server: 1),
                Row(event: .authenticated, action: .none, state: .connected, server: 1),
                // Lost again right after the free move: wait before the next server.
                Row(
                    event: .dropped,
                    action: .wait(attempt: 1, delay: 0.5),
                    state: .waiting(attempt: 1, delay: 0.5),
                    server: 0
                ),
                Row(event: .timer, action: .connect(attempt: 1), state: .connecting(attempt: 1), server: 0),
                Row(event: .authenticated, action: .none, state: .connected, server: 0),
                // The wait paid for it: the next loss moves on at once again.
                Row(event: .dropped, action: .connect(attempt: 1), state: .connecting(attempt: 1), server: 1),
                // A refusal in between does not count as a free move: the round ends with a wait.
                Row(
                    event: .failed,
                    action: .wait(attempt: 2, delay: 0.5),
                    state: .waiting(attempt: 2, delay: 0.5),
                    server: 0
                ),
                Row(event: .timer, action: .connect(attempt: 2), state: .connecting(attempt: 2), server: 0),
                Row(event: .authenticated, action: .none, state: .connected, server: 0),
                Row(event: .dropped, action: .connect(attempt: 1), state: .connecting(attempt: 1), server: 1),
                // A stop forgets the free move.
                Row(event: .stop, action: .stop(.requested), state: .stopped(.requested), server: 1),
                Row(event: .start, action: .connect(attempt: 0), state: .connecting(attempt: 0), server: 1),
                Row(event: .authenticated, action: .none, state: .connected, server: 1),
                Row(event: .dropped, action: .connect(attempt: 1), state: .connecting(attempt: 1), server: 0),
            ],
            on: ReconnectMachine(serverCount: 2)
        )
    }

    @Test("a failed first connect goes to the next server at once")
    func aFailedFirstConnectTriesTheNextServer() {
        Self.play(
            [
                Row(event: .start, action: .connect(attempt: 0), state: .connecting(attempt: 0), server: 0),
                Row(event: .failed, action: .connect(attempt: 1), state: .connecting(attempt: 1), server: 1),
                Row(event: .authenticated, action: .none, state: .connected, server: 1),
            ],
            on: ReconnectMachine(serverCount: 2)
        )
    }

    @Test("terminal closes stop on any server; a restart begins where the client stopped")
    func terminalClosesAreNotFailedOver() {
        Self.play(
            [
                Row(event: .start, action: .connect(attempt: 0), state: .connecting(attempt: 0), server: 0),
                Row(event: .failed, action: .connect(attempt: 1), state: .connecting(attempt: 1), server: 1),
                Row(event: .closedTerminal, action: .stop(Self.terminal), state: .stopped(Self.terminal), server: 1),
                Row(event: .start, action: .connect(attempt: 0), state: .connecting(attempt: 0), server: 1),
                Row(event: .authenticated, action: .none, state: .connected, server: 1),
                Row(event: .stop, action: .stop(.requested), state: .stopped(.requested), server: 1),
            ],
            on: ReconnectMachine(serverCount: 2)
        )
    }

    @Test("a TLS failure moves on while a server of the round is untried, and stops when it ends the round")
    func tlsFailuresStopAtTheEndOfARound() {
        let tls = StopReason.transportFailed(kind: .tls, message: "untrusted")
        Self.play(
            [
                Row(event: .start, action: .connect(attempt: 0), state: .connecting(attempt: 0), server: 0),
                Row(event: .failedTLS, action: .connect(attempt: 1), state: .connecting(attempt: 1), server: 1),
                Row(event: .failedTLS, action: .connect(attempt: 2), state: .connecting(attempt: 2), server: 2),
                // Every server of the round failed and the last one's handshake: stop, do not go round again.
                Row(event: .failedTLS, action: .stop(tls), state: .stopped(tls), server: 2),
                Row(event: .start, action: .connect(attempt: 0), state: .connecting(attempt: 0), server: 2),
                Row(event: .authenticated, action: .none, state: .connected, server: 2),
                Row(event: .dropped, action: .connect(attempt: 1), state: .connecting(attempt: 1), server: 0),
                Row(event: .failedTLS, action: .connect(attempt: 2), state: .connecting(attempt: 2), server: 1),
                // A refusal ends this round: the usual wait.
                Row(
                    event: .failed,
                    action: .wait(attempt: 3, delay: 0.5),
                    state: .waiting(attempt: 3, delay: 0.5),
                    server: 2
                ),
                Row(event: .timer, action: .connect(attempt: 3), state: .connecting(attempt: 3), server: 2),
                Row(event: .failedTLS, action: .connect(attempt: 4), state: .connecting(attempt: 4), server: 0),
                Row(event: .failedTLS, action: .connect(attempt: 5), state: .connecting(attempt: 5), server: 1),
                Row(event: .failedTLS, action: .stop(tls), state: .stopped(tls), server: 1),
            ],
            on: ReconnectMachine(serverCount: 3)
        )
    }

    @Test("a machine may start on any server; the index wraps around")
    func startsOnTheGivenServer() {
        #expect(ReconnectMachine(serverCount: 5, server: 3).server == 3)
        #expect(ReconnectMachine(serverCount: 5, server: 7).server == 2)
        #expect(ReconnectMachine(serverCount: 0).serverCount == 1)
        Self.play(
            [
                Row(event: .start, action: .connect(attempt: 0), state: .connecting(attempt: 0), server: 2),
                Row(event: .failed, action: .connect(attempt: 1), state: .connecting(attempt: 1), server: 0),
                Row(event: .failed, action: .connect(attempt: 2), state: .connecting(attempt: 2), server: 1),
                Row(
                    event: .failed,
                    action: .wait(attempt: 3, delay: 0.5),
                    state: .waiting(attempt: 3, delay: 0.5),
                    server: 2
                ),
            ],
            on: ReconnectMachine(serverCount: 3, server: 2)
        )
    }

    @Test("one server: every failure waits policy.delay(attempt: n), exactly as without failover", arguments: 1...9)
    func oneServerBacksOffEveryFailure(failures: Int) {
        let policy = BackoffPolicy.standard
        var machine = ReconnectMachine(policy: policy, serverCount: 1)
        _ = machine.start()
        machine.authenticated()
        var action = machine.connectionClosed(code: nil, message: "", unit: 0.5)
        for attempt in 1...failures {
            let delay = policy.delay(attempt: attempt, unit: 0.5)
            #expect(action == .wait(attempt: attempt, delay: delay))
            #expect(machine.state == .waiting(attempt: attempt, delay: delay))
            #expect(machine.server == 0)
            #expect(machine.retryTimerFired() == .connect(attempt: attempt))
            action = machine.connectionFailed(Self.refused, unit: 0.5)
        }
    }

    @Test("the resume position is kept across servers: the next server gets the same hello")
    func theNextServerGetsTheSameHello() throws {
        let digest = Digest.genesis
        var session = ResumeSession(
            position: ResumeSession.Position(since: 7, epoch: LeagueEpoch(rawValue: "e1"), digest: digest),
            serverCount: 2
        )
        let instance = try #require(ClientInstanceID("client-a"))
        #expect(session.start() == .connect(attempt: 0))
        let first = session.connectionOpened(now: Date(), token: "t", instance: instance)
        _ = session.receive(.welcome(epoch: LeagueEpoch(rawValue: "e1"), head: 7, headDigest: digest, mode: .live))
        #expect(session.connectionClosed(code: .goingAway, message: "", unit: 0) == .connect(attempt: 1))
        #expect(session.server == 1)
        let second = session.connectionOpened(now: Date(), token: "t", instance: instance)
        #expect(second == first)
        #expect(second.since == 7 && second.epoch == LeagueEpoch(rawValue: "e1") && second.digest == digest)
    }
}
