import Foundation
import GoalClient
import GoalTestSlots
import GoalWire
import Testing

/// Every state × every event of `ReconnectMachine`: the action and the state after it.
@Suite("ReconnectMachine: the full transition table", .slotted)
struct ReconnectMachineTableTests {
    enum Start: String, CaseIterable {
        case idle, connecting2, connected, waiting3, stopped
    }

    enum Event: String, CaseIterable {
        case start, authenticated, dropped, closedTerminal, failed, failedTLS, timer, reconnectNow, stop
    }

    typealias State = ReconnectMachine.State
    typealias Action = ReconnectMachine.Action

    static let refused = TransportFailure(.cannotConnect, "refused")
    static let untrusted = TransportFailure(.tls, "untrusted")
    static let terminal = StopReason.terminal(code: .unauthorized, message: "unknown token")
    static let tls = StopReason.transportFailed(kind: .tls, message: "untrusted")

    /// A machine driven into `start` through real events.
    static func machine(_ start: Start) -> ReconnectMachine {
        var machine = ReconnectMachine()
        switch start {
        case .idle:
            break
        case .connecting2, .waiting3:
            _ = machine.start()
            for _ in 0..<2 {
                _ = machine.connectionFailed(refused, unit: 0)
                _ = machine.retryTimerFired()
            }
            if start == .waiting3 { _ = machine.connectionFailed(refused, unit: 0) }
        case .connected:
            _ = machine.start()
            machine.authenticated()
        case .stopped:
            _ = machine.start()
            _ = machine.stop()
        }
        return machine
    }

    static func apply(_ event: Event, to machine: inout ReconnectMachine) -> Action {
        switch event {
        case .start: return machine.start()
        case .authenticated:
            machine.authenticated()
            return .none
        case .dropped: return machine.connectionClosed(code: nil, message: "", unit: 0)
        case .closedTerminal: return machine.connectionClosed(code: .unauthorized, message: "unknown token", unit: 0)
        case .failed: return machine.connectionFailed(refused, unit: 0)
        case .failedTLS: return machine.connectionFailed(untrusted, unit: 0)
        case .timer: return machine.retryTimerFired()
        case .reconnectNow: return machine.reconnectNow()
        case .stop: return machine.stop()
        }
    }

    /// The expected (action, state) per start state and event; an absent entry means "no action, no change".
    static let table: [Start: [Event: (Action, State)]] = [
        .idle: [
            .start: (.connect(attempt: 0), .connecting(attempt: 0)),
            .stop: (.stop(.requested), .stopped(.requested)),
        ],
        .connecting2: [
            .authenticated: (.none, .connected),
            .dropped: (.wait(attempt: 3, delay: 2), .waiting(attempt: 3, delay: 2)),
            .closedTerminal: (.stop(terminal), .stopped(terminal)),
            .failed: (.wait(attempt: 3, delay: 2), .waiting(attempt: 3, delay: 2)),
            .failedTLS: (.stop(tls), .stopped(tls)),
            .stop: (.stop(.requested), .stopped(.requested)),
        ],
        .connected: [
            .dropped: (.wait(attempt: 1, delay: 0.5), .waiting(attempt: 1, delay: 0.5)),
            .closedTerminal: (.stop(terminal), .stopped(terminal)),
            .failed: (.wait(attempt: 1, delay: 0.5), .waiting(attempt: 1, delay: 0.5)),
            .failedTLS: (.stop(tls), .stopped(tls)),
            .stop: (.stop(.requested), .stopped(.requested)),
        ],
        .waiting3: [
            .timer: (.connect(attempt: 3), .connecting(attempt: 3)),
            .reconnectNow: (.connect(attempt: 3), .connecting(attempt: 3)),
            .stop: (.stop(.requested), .stopped(.requested)),
        ],
        .stopped: [
            .start: (.connect(attempt: 0), .connecting(attempt: 0))
        ],
    ]

    @Test(arguments: Start.allCases, Event.allCases)
    func transition(from start: Start, on event: Event) {
        var machine = Self.machine(start)
        let before = machine.state
        let action = Self.apply(event, to: &machine)
        let (expectedAction, expectedState) = Self.table[start]?[event] ?? (.none, before)
        #expect(action == expectedAction)
        #expect(machine.state == expectedState)
    }

    @Test func theStartStatesAreTheOnesNamed() {
        #expect(Self.machine(.idle).state == .idle)
        #expect(Self.machine(.connecting2).state == .connecting(attempt: 2))
        #expect(Self.machine(.connected).state == .connected)
        #expect(Self.machine(.waiting3).state == .waiting(attempt: 3, delay: 2))
        #expect(Self.machine(.stopped).state == .stopped(.requested))
    }
}
