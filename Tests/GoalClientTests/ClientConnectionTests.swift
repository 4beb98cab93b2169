import Foundation
import GoalClient
import GoalModel
import GoalReactive
import GoalTestSlots
import GoalWire
import Testing

@Suite("GoalClient connection: terminal close codes, backoff, heartbeats, dead peer, refresh, stop", .slotted)
struct ClientConnectionTests {
    @Test(arguments: [4400, 4401, 4403, 4409, 4413, 1002, 1008] as [UInt16])
    func aTerminalCloseCodeStopsWithAClearStatus(code: UInt16) {
        let h = ClientHarness()
        h.start()
        h.connect(mode: .live, head: 0)
        h.deliver(.closed(code: code, reason: "bye"))
        #expect(h.statuses.last == .stopped(.terminal(code: CloseCode(rawValue: code), message: "bye")))
        h.scheduler.advance(by: 3600)
        #expect(h.transport.connections.count == 1)
    }

    @Test func aServerThatRefusesProtocol2IsAskedForProtocol1AndARefusalOfThatStops() {
        let h = ClientHarness()
        h.start()
        h.deliver(.connected)
        h.deliver(.closed(code: 4426, reason: "protocol 2 is not supported"))
        h.scheduler.advance(by: 60)
        #expect(h.transport.connections.count == 2)
        h.deliver(.connected)
        let hellos = h.transport.connections.compactMap { connection -> Int? in
            guard case .hello(let hello)? = connection.sent.first else { return nil }
            return hello.protocolVersion
        }
        #expect(hellos == [2, 1])
        h.deliver(.closed(code: 4426, reason: "bye"))
        #expect(h.statuses.last == .stopped(.terminal(code: .unsupportedProtocolVersion, message: "bye")))
        h.scheduler.advance(by: 3600)
        #expect(h.transport.connections.count == 2)
    }

    @Test func theServersErrorMessageExplainsTheTerminalClose() {
        let h = ClientHarness()
        h.start()
        h.deliver(.connected)
        h.deliver(.error(code: .unauthorized, message: "unknown token"))
        h.deliver(.closed(code: nil, reason: ""))
        let reason = StopReason.terminal(code: .unauthorized, message: "unknown token")
        #expect(h.statuses == [.idle, .connecting(attempt: 0), .stopped(reason)])
        #expect(reason.description == "unknown token (unauthorized (4401))")
    }

    @Test(arguments: [1000, 1001, 1006, 4000, 4001, 4002, 4008, 4010, 4011, 4012, 4029] as [UInt16])
    func aReconnectClassCloseReconnects(code: UInt16) {
        let h = ClientHarness()
        h.start()
        h.connect(mode: .live, head: 0)
        h.deliver(.closed(code: code, reason: ""))
        #expect(h.statuses.last == .reconnecting(attempt: 1, delay: 0.5))
        h.scheduler.advance(by: 0.5)
        #expect(h.transport.connections.count == 2)
    }

    @Test func failedAttemptsBackOffExponentiallyWithJitterUntilAWelcomeResetsThem() {
        // Units: 0 (full delay), 0.5 (a quarter removed with jitter 0.5), 1 → half removed.
        let h = ClientHarness(jitter: [0, 0.5, 0, 0, 0, 0, 0, 0, 0, 0])
        h.start()
        let failure = TransportFailure(.cannotConnect, "connection refused")
        var delays: [TimeInterval] = []
        for _ in 0..<8 {
            h.deliver(.failed(failure))
            guard case .reconnecting(_, let delay) = h.statuses.last else {
                Issue.record("not reconnecting: \(String(describing: h.statuses.last))")
                return
            }
            delays.append(delay)
            h.scheduler.advance(by: delay)
        }
        #expect(delays == [0.5, 0.75, 2, 4, 8, 16, 30, 30])
        #expect(h.transport.connections.count == 9)
        h.connect(mode: .live, head: 0)
        h.deliver(.closed(code: 1006, reason: ""))
        #expect(h.statuses.last == .reconnecting(attempt: 1, delay: 0.5))
    }

    @Test func aTLSFailureStops() {
        let h = ClientHarness()
        h.start()
        h.deliver(.failed(TransportFailure(.tls, "certificate not trusted")))
        #expect(h.statuses.last == .stopped(.transportFailed(kind: .tls, message: "certificate not trusted")))
    }

    @Test func pingsGoOutEveryIntervalAndThePongGivesTheRoundTrip() {
        let h = ClientHarness()
        h.start()
        h.connect(mode: .live, head: 0)
        h.scheduler.advance(by: 14.9)
        #expect(h.transport.last.pings == 0)
        h.scheduler.advance(by: 0.1)
        #expect(h.transport.last.pings == 1)
        h.scheduler.advance(by: 0.25)
        h.deliver(.pong)
        guard case .live(let roundTrip?) = h.statuses.last else {
            Issue.record("no round-trip time: \(String(describing: h.statuses.last))")
            return
        }
        #expect(abs(roundTrip - 0.25) < 1e-6)
        h.scheduler.advance(by: 15)
        #expect(h.transport.last.pings == 2)
    }

    @Test func aSilentPeerIsDeadAfterFortySecondsOfVirtualTime() {
        let h = ClientHarness()
        h.start()
        h.connect(mode: .live, head: 0)
        h.scheduler.advance(by: 39.999)
        #expect(h.transport.last.closeCodes == [])
        #expect(h.statuses.last == .live(roundTrip: nil))
        #expect(h.transport.last.pings == 2, "pings at 15 s and 30 s went unanswered")
        h.scheduler.advance(by: 0.001)
        #expect(h.transport.connections[0].closeCodes == [CloseCode.heartbeatTimeout.rawValue])
        #expect(h.statuses.last == .reconnecting(attempt: 1, delay: 0.5))
        h.transport.connections[0].deliver(.closed(code: 4010, reason: ""))
        h.scheduler.advance(by: 0.5)
        #expect(h.transport.connections.count == 2, "late events of the dead connection change nothing")
    }

    @Test func anyInboundFrameMovesTheDeadlineOn() {
        let h = ClientHarness()
        h.start()
        h.connect(mode: .live, head: 0)
        h.scheduler.advance(by: 30)
        h.deliver(.pong)
        h.scheduler.advance(by: 39.9)
        #expect(h.transport.last.closeCodes == [])
        h.scheduler.advance(by: 0.1)
        #expect(h.transport.last.closeCodes == [CloseCode.heartbeatTimeout.rawValue])
    }

    @Test func refreshSkipsTheBackoffWaitAndSendsTheRevisionOnceLive() {
        let h = ClientHarness()
        h.start()
        h.connect(mode: .live, head: 0)
        h.deliver(.closed(code: 1006, reason: ""))
        var revisions: [Revision] = []
        _ = h.client.refresh().startWithResult { if case .success(let revision) = $0 { revisions.append(revision) } }
        h.scheduler.advance()
        #expect(h.transport.connections.count == 2, "reconnected without waiting 0.5 s")
        #expect(revisions == [])
        h.connect(mode: .live, head: 0)
        #expect(revisions == [0])
    }

    @Test func refreshFailsWhenTheAttemptItWaitsForFailsAndTheClientKeepsRetrying() {
        let h = ClientHarness()
        h.start()
        h.connect(mode: .live, head: 0)
        h.deliver(.closed(code: 1006, reason: ""))
        var errors: [StoreError] = []
        _ = h.client.refresh().startWithFailed { errors.append($0) }
        h.scheduler.advance()
        #expect(errors == [], "the wait was skipped; the new attempt is under way")
        h.deliver(.failed(TransportFailure(.cannotConnect, "refused")))
        #expect(errors == [.unreachable("test:7443", retryIn: 1)])
        #expect(errors.first?.description == "cannot reach test:7443; retrying in 1.0 s")
        #expect(h.statuses.last == .reconnecting(attempt: 2, delay: 1))
        h.scheduler.advance(by: 1)
        #expect(h.transport.connections.count == 3)
    }

    @Test func refreshFailsWhenTheClientStops() {
        let h = ClientHarness()
        h.start()
        var errors: [StoreError] = []
        _ = h.client.refresh().startWithFailed { errors.append($0) }
        h.deliver(.failed(TransportFailure(.tls, "bad certificate")))
        #expect(errors == [.stopped(.transportFailed(kind: .tls, message: "bad certificate"))])
    }

    @Test func stopClosesNormallyAndCancelsTimersAndStartResumes() {
        let h = ClientHarness()
        h.start()
        h.connect(mode: .live, head: 0)
        h.client.stop()
        h.scheduler.advance()
        #expect(h.transport.connections[0].closeCodes == [CloseCode.normal.rawValue])
        #expect(h.statuses.last == .stopped(.requested))
        h.scheduler.advance(by: 100)
        #expect(h.transport.connections[0].pings == 0)
        #expect(h.transport.connections.count == 1)
        h.start()
        #expect(h.transport.connections.count == 2)
        #expect(h.statuses.last == .connecting(attempt: 0))
    }
}
