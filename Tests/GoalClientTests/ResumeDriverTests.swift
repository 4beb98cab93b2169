import Foundation
import GoalClient
import GoalModel
import GoalReactive
import GoalTestSlots
import GoalWire
import Testing

/// The one resume driver (`ResumeDriver`), on a fake transport and a test scheduler: no sockets, no sleeps. Each
/// test proves one rule of how it carries out the shared `ResumeSession`.
@Suite("ResumeDriver: the one driver of the resume rules", .slotted)
struct ResumeDriverTests {
    let instance = ClientInstanceID("driver-a")!

    private func driver(
        servers: Int = 1,
        position: ResumeSession.Position = ResumeSession.Position(),
        backoff: BackoffPolicy = .tail,
        options change: (inout ResumeDriver.Options) -> Void = { _ in },
        execution: (TestScheduler) -> ResumeDriver.Execution = { .serial($0) }
    ) -> (ResumeDriver, RecordingOwner, FakeTransport, TestScheduler) {
        let scheduler = TestScheduler()
        let transport = FakeTransport()
        var options = ResumeDriver.Options(token: "t", instance: instance)
        change(&options)
        let driver = ResumeDriver(
            machine: ResumeSession(
                position: position,
                policy: backoff,
                idleTimeout: options.heartbeat?.idleTimeout ?? HeartbeatPolicy.standard.idleTimeout,
                serverCount: servers
            ),
            options: options,
            transport: transport,
            execution: execution(scheduler),
            jitter: ConstantJitter(0)
        )
        let owner = RecordingOwner()
        driver.attach(owner)
        return (driver, owner, transport, scheduler)
    }

    private func welcome(head: Revision, mode: ServerMessage.SyncMode = .live) -> ServerMessage {
        .welcome(
            ServerMessage.Welcome(
                epoch: LeagueEpoch(rawValue: "e1"),
                head: head,
                headDigest: .genesis,
                mode: mode,
                role: .viewer,
                serverTime: Timestamp(millisecondsSince1970: 0)
            )
        )
    }

    private func hellos(_ transport: FakeTransport) -> [ClientMessage.Hello] {
        transport.connections.flatMap(\.sent).compactMap {
            if case .hello(let hello) = $0 { return hello }
            return nil
        }
    }

    @Test func theHelloResumesFromThePositionOnceTheTransportConnects() {
        let (driver, owner, transport, scheduler) = driver(
            position: ResumeSession.Position(since: 7, epoch: LeagueEpoch(rawValue: "e1"), digest: .genesis)
        )
        driver.perform { driver.start() }
        scheduler.advance()
        #expect(owner.events == ["connecting 0 to 0"])
        #expect(hellos(transport).isEmpty, "nothing is sent before .connected")
        transport.last.deliver(.connected)
        scheduler.advance()
        #expect(hellos(transport).map(\.since) == [7])
        #expect(hellos(transport).first?.epoch == LeagueEpoch(rawValue: "e1"))
        transport.last.deliver(welcome(head: 7))
        scheduler.advance()
        #expect(driver.machine.phase == .live)
        #expect(owner.events.last == "received welcome")
    }

    @Test func aLostConnectionMovesToTheNextServerAtOnceThenWaitsOnceEveryServerFailed() {
        let (driver, owner, transport, scheduler) = driver(servers: 2)
        driver.perform { driver.start() }
        scheduler.advance()
        transport.last.deliver(.closed(code: 1006, reason: "cut"))
        scheduler.advance()
        #expect(transport.connections.map(\.server) == [0, 1], "failover without a wait")
        #expect(owner.events.suffix(2) == ["disconnected closed 1006 cut", "connecting 1 to 1 after loss"])
        transport.last.deliver(.failed(TransportFailure(.cannotConnect, "refused")))
        scheduler.advance()
        #expect(owner.events.last == "waiting 2 for 1.0")
        #expect(transport.connections.count == 2)
        scheduler.advance(by: 0.9)
        #expect(transport.connections.count == 2, "the wait is the backoff's first delay")
        scheduler.advance(by: 0.1)
        #expect(transport.connections.map(\.server) == [0, 1, 0])
    }

    @Test func anAbandonVerdictClosesWithItsCodeAndIgnoresTheOldConnection() {
        let (driver, owner, transport, scheduler) = driver()
        owner.verdict = .abandon(.resync, reason: "gap")
        driver.perform { driver.start() }
        scheduler.advance()
        let first = transport.last
        first.deliver(.connected)
        first.deliver(welcome(head: 0))
        scheduler.advance()
        #expect(first.closeCodes == [CloseCode.resync.rawValue])
        #expect(owner.events.contains("disconnected abandoned gap"))
        owner.verdict = .proceed
        first.deliver(.message(welcome(head: 0).encoded()))
        scheduler.advance()
        #expect(owner.events.filter { $0.hasPrefix("received") }.count == 1, "events of a lost connection are ignored")
        scheduler.advance(by: 1)
        #expect(transport.connections.count == 2, "resumed after the backoff")
    }

    @Test func aSilentPeerIsAbandonedWith4010AndAPongGivesTheRoundTrip() {
        let (driver, owner, transport, scheduler) = driver(options: {
            $0.heartbeat = HeartbeatPolicy(pingInterval: 5, idleTimeout: 12)
        })
        driver.perform { driver.start() }
        scheduler.advance()
        transport.last.deliver(.connected)
        scheduler.advance()
        scheduler.advance(by: 5)
        #expect(transport.last.pings == 1)
        scheduler.advance(by: 0.25)
        transport.last.deliver(.pong)
        scheduler.advance()
        #expect(owner.events.last == "pong 250 ms")
        #expect(abs((driver.roundTrip ?? 0) - 0.25) < 0.001)
        // The pong was the last read (at 5.25 s): the peer is dead at 17.25 s, not before.
        scheduler.advance(by: 11.9)
        #expect(transport.last.closeCodes.isEmpty)
        scheduler.advance(by: 0.1)
        #expect(transport.last.closeCodes == [CloseCode.heartbeatTimeout.rawValue])
        #expect(owner.events.contains("disconnected abandoned nothing read for 12 s"))
    }

    @Test func failureRules() {
        let tls = TransportFailure(.tls, "untrusted")
        let refused = TransportFailure(.cannotConnect, "refused")
        // The machine's rule: one server, a TLS failure stops.
        let (machine, machineOwner, machineTransport, machineScheduler) = driver()
        machine.perform { machine.start() }
        machineScheduler.advance()
        machineTransport.last.deliver(.failed(tls))
        machineScheduler.advance()
        #expect(machineOwner.events.last == "stopped cannot connect: tls: untrusted")
        // Retry: even TLS failures wait and resume.
        let (retry, retryOwner, retryTransport, retryScheduler) = driver(options: { $0.failures = .retry })
        retry.perform { retry.start() }
        retryScheduler.advance()
        retryTransport.last.deliver(.failed(tls))
        retryScheduler.advance()
        #expect(retryOwner.events.last == "waiting 1 for 1.0")
        // Fatal until welcomed: a refused first connection stops; after a welcome the same failure resumes.
        let (fatal, fatalOwner, fatalTransport, fatalScheduler) = driver(options: { $0.failures = .fatalUntilWelcomed })
        fatal.perform { fatal.start() }
        fatalScheduler.advance()
        fatalTransport.last.deliver(.failed(refused))
        fatalScheduler.advance()
        #expect(fatalOwner.events.last == "stopped cannot connect: cannot_connect: refused")
        fatal.perform { fatal.start() }
        fatalScheduler.advance()
        fatalTransport.last.deliver(.connected)
        fatalTransport.last.deliver(welcome(head: 0))
        fatalTransport.last.deliver(.closed(code: 1006, reason: "restart"))
        fatalScheduler.advance()
        fatalScheduler.advance(by: 1)
        fatalTransport.last.deliver(.failed(refused))
        fatalScheduler.advance()
        #expect(fatalOwner.events.last == "waiting 2 for 2.0")
    }

    @Test func reconnectNowSkipsAPendingWaitAndNothingElse() {
        let (driver, _, transport, scheduler) = driver()
        driver.perform { driver.start() }
        scheduler.advance()
        driver.perform { driver.reconnectNow() }
        scheduler.advance()
        #expect(transport.connections.count == 1, "nothing to skip while connecting")
        transport.last.deliver(.closed(code: 1006, reason: "cut"))
        scheduler.advance()
        #expect(driver.machine.reconnect.state == .waiting(attempt: 1, delay: 1))
        driver.perform { driver.reconnectNow() }
        scheduler.advance()
        #expect(transport.connections.count == 2, "the wait was skipped")
        scheduler.advance(by: 1)
        #expect(transport.connections.count == 2, "and its timer was cancelled")
    }

    @Test func anOwnerThatMayNotResumeStopsTheDriverQuietly() {
        let (driver, owner, transport, scheduler) = driver()
        owner.mayResume = false
        driver.perform { driver.start() }
        scheduler.advance()
        transport.last.deliver(.closed(code: 1001, reason: "going away"))
        scheduler.advance()
        scheduler.advance(by: 60)
        #expect(transport.connections.count == 1)
        #expect(!owner.events.contains { $0.hasPrefix("waiting") || $0.hasPrefix("stopped") })
        #expect(driver.machine.reconnect.state == .stopped(.requested))
    }

    @Test func anInlineDriverRunsEventsAtOnceAndAWriterHelloNamesNoPosition() {
        let (driver, owner, transport, scheduler) = driver(
            position: ResumeSession.Position(since: 3, epoch: LeagueEpoch(rawValue: "e1"), digest: .genesis),
            options: {
                $0.helloTiming = .onOpen
                $0.resumesPosition = false
                $0.stream = .acks
                $0.heartbeat = nil
            },
            execution: { .inline(timers: $0) }
        )
        driver.start()
        #expect(hellos(transport).map(\.since) == [nil], "sent at open, without a position")
        #expect(hellos(transport).first?.stream == .acks)
        transport.last.deliver(welcome(head: 9))
        #expect(owner.events.last == "received welcome", "no scheduler step needed")
        driver.stop()
        #expect(owner.events.suffix(2) == ["disconnected stop", "stopped stopped by the client"])
        #expect(transport.last.closeCodes == [CloseCode.normal.rawValue])
        #expect(scheduler.currentDate == Date(timeIntervalSinceReferenceDate: 0))
    }
}

/// Records what the driver tells its owner, one line each, and judges messages through the driver's machine.
private final class RecordingOwner: ResumeDriverDelegate, @unchecked Sendable {
    // `@unchecked Sendable`: every property is touched only with `lock` held.
    private let lock = NSLock()
    private var recorded: [String] = []
    private var storedVerdict = ResumeDriver.Verdict.proceed
    private var storedMayResume = true

    var events: [String] { lock.withLock { recorded } }
    var verdict: ResumeDriver.Verdict {
        get { lock.withLock { storedVerdict } }
        set { lock.withLock { storedVerdict = newValue } }
    }
    var mayResume: Bool {
        get { lock.withLock { storedMayResume } }
        set { lock.withLock { storedMayResume = newValue } }
    }

    private func record(_ line: String) { lock.withLock { recorded.append(line) } }

    func resumeDriver(_ driver: ResumeDriver, connecting attempt: Int, server: Int, after loss: ResumeDriver.Loss?) {
        record("connecting \(attempt) to \(server)\(loss == nil ? "" : " after loss")")
    }

    func resumeDriver(_ driver: ResumeDriver, received bytes: [UInt8]) -> ResumeDriver.Verdict {
        guard let message = try? ServerMessage.decode(bytes) else {  // the tests send only valid messages
            return .abandon(.protocolViolation, reason: "undecodable")
        }
        record("received \(message.type)")
        if let event = ResumeSession.StreamEvent(message) {
            if case .resync(let reason) = driver.updateMachine({ $0.receive(event) }) {
                return .abandon(.resync, reason: reason)
            }
        }
        return verdict
    }

    func resumeDriver(_ driver: ResumeDriver, pong roundTrip: TimeInterval) {
        record("pong \(Int((roundTrip * 1000).rounded())) ms")
    }

    func resumeDriver(_ driver: ResumeDriver, disconnected loss: ResumeDriver.Loss?) {
        switch loss {
        case .closed(let code, let message): record("disconnected closed \(code.map(String.init) ?? "-") \(message)")
        case .failed(let failure): record("disconnected failed \(failure)")
        case .abandoned(_, let reason): record("disconnected abandoned \(reason)")
        case nil: record("disconnected stop")
        }
    }

    func resumeDriver(_ driver: ResumeDriver, waiting attempt: Int, delay: TimeInterval, after loss: ResumeDriver.Loss?)
    {
        record("waiting \(attempt) for \(delay)")
    }

    func resumeDriver(_ driver: ResumeDriver, stopped reason: StopReason) { record("stopped \(reason)") }

    func resumeDriverMayResume(_ driver: ResumeDriver) -> Bool { mayResume }
}
