import Foundation
import GoalClient
import GoalTestSlots
import GoalWire
import Testing

@Suite("ReconnectMachine and BackoffPolicy: pure rules", .slotted)
struct ReconnectMachineTests {
    let failure = TransportFailure(.cannotConnect, "refused")

    @Test func startConnectsOnceAndIgnoresRepeats() {
        var machine = ReconnectMachine()
        #expect(machine.state == .idle)
        #expect(machine.start() == .connect(attempt: 0))
        #expect(machine.state == .connecting(attempt: 0))
        #expect(machine.start() == .none)
        machine.authenticated()
        #expect(machine.state == .connected)
        #expect(machine.start() == .none)
    }

    @Test func failuresGrowTheAttemptAndTheTimerOpensIt() {
        var machine = ReconnectMachine()
        _ = machine.start()
        #expect(machine.connectionFailed(failure, unit: 0) == .wait(attempt: 1, delay: 0.5))
        #expect(machine.state == .waiting(attempt: 1, delay: 0.5))
        #expect(machine.retryTimerFired() == .connect(attempt: 1))
        #expect(machine.connectionClosed(code: nil, message: "", unit: 0) == .wait(attempt: 2, delay: 1))
        #expect(machine.reconnectNow() == .connect(attempt: 2))
        #expect(machine.reconnectNow() == .none, "nothing to skip while connecting")
        #expect(machine.retryTimerFired() == .none, "a stale timer does nothing")
        machine.authenticated()
        #expect(machine.connectionClosed(code: .slowConsumer, message: "", unit: 0) == .wait(attempt: 1, delay: 0.5))
    }

    @Test func terminalCodesTLSAndStopAreFinal() {
        var machine = ReconnectMachine()
        _ = machine.start()
        let action = machine.connectionClosed(code: .unauthorized, message: "unknown token", unit: 0)
        #expect(action == .stop(.terminal(code: .unauthorized, message: "unknown token")))
        #expect(machine.connectionClosed(code: nil, message: "", unit: 0) == .none)
        #expect(machine.retryTimerFired() == .none)
        #expect(machine.stop() == .none)
        #expect(machine.start() == .connect(attempt: 0), "an explicit start begins again")

        #expect(
            machine.connectionFailed(TransportFailure(.tls, "untrusted"), unit: 0)
                == .stop(.transportFailed(kind: .tls, message: "untrusted"))
        )

        var waiting = ReconnectMachine()
        _ = waiting.start()
        _ = waiting.connectionFailed(failure, unit: 0)
        #expect(waiting.stop() == .stop(.requested))
        #expect(waiting.retryTimerFired() == .none)
    }

    @Test func eventsWhileIdleOrWaitingDoNothing() {
        var machine = ReconnectMachine()
        #expect(machine.connectionClosed(code: nil, message: "", unit: 0) == .none)
        #expect(machine.connectionFailed(failure, unit: 0) == .none)
        #expect(machine.retryTimerFired() == .none)
        _ = machine.start()
        _ = machine.connectionFailed(failure, unit: 0)
        #expect(machine.connectionFailed(failure, unit: 0) == .none, "no connection is open while waiting")
    }

    @Test func backoffDoublesToTheMaximumAndJitterRemovesUpToItsFraction() {
        let policy = BackoffPolicy(initial: 0.5, maximum: 30, multiplier: 2, jitter: 0.5)
        #expect((1...9).map { policy.delay(attempt: $0, unit: 0) } == [0.5, 1, 2, 4, 8, 16, 30, 30, 30])
        #expect(policy.delay(attempt: 3, unit: 0.5) == 1.5)
        #expect(policy.delay(attempt: 3, unit: 1) == 1)
        #expect(policy.delay(attempt: 0, unit: 0) == 0.5, "attempts below 1 count as 1")
        #expect(BackoffPolicy(jitter: 3).jitter == 1)
        #expect((0..<100).allSatisfy { _ in (0..<1).contains(SystemJitter().nextUnit()) })
    }
}
