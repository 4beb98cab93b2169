import GoalModel
import GoalStore
import GoalTestSlots
import GoalWire
import Logging
import NIOCore
import NIOWebSocket
import Testing

@testable import GoalServer

/// `hello` → `welcome` on `SessionMachine` directly (issue 36 point 1; docs/PROTOCOL.md §3): the hello asks for
/// authentication, the store's facts and the registries' answer admit or refuse it, and the shard's head gives the
/// welcome. The sync mode and the catch-up to live are in SessionMachineSyncModeTests. No socket, no daemon, no clock.
@Suite("the session machine's hello: authentication, admission, refusals, welcome", .slotted)
struct SessionMachineHelloTests: SessionMachineFixtures {
    static let instance = ClientInstanceID.random()
    static let alice = StoredToken(
        name: "alice",
        role: .viewer,
        secretHash: [],
        created: Timestamp(millisecondsSince1970: 0)
    )

    static func digest(_ byte: UInt8) -> Digest {
        Digest(bytes: Array(repeating: byte, count: 32))!
    }

    static func hello(
        since: Revision? = nil,
        epoch: LeagueEpoch? = nil,
        digest: Digest? = nil,
        stream: ClientMessage.StreamSelection = .all,
        presence: PresenceSubscription = .none,
        protocolVersion: Int = WireProtocol.version
    ) -> ClientMessage.Hello {
        ClientMessage.Hello(
            protocolVersion: protocolVersion,
            token: "gt_alice",
            clientInstance: instance,
            since: since,
            epoch: epoch,
            digest: digest,
            stream: stream,
            presence: presence
        )
    }

    /// What the store says: the token (alice unless nil), the log (oldest..head) and d_since.
    static func facts(
        token: StoredToken? = alice,
        oldest: Revision? = 3,
        head: Revision = 10,
        digestAtSince: Digest? = nil,
        standing: LeagueStanding? = nil
    ) -> HelloFacts {
        HelloFacts(
            token: token,
            standing: standing ?? .member(token?.role ?? .viewer, epoch),
            bounds: LogBounds(oldestRetainedRevision: oldest, head: head, headDigest: digest(UInt8(head))),
            digestAtSince: digestAtSince
        )
    }

    static func frame(_ hello: ClientMessage.Hello) -> ByteBuffer {
        ByteBuffer(bytes: ClientMessage.hello(hello).encoded())
    }

    static func textFrame(_ text: String) -> ByteBuffer {
        ServerFrameEncoder.textFrame(Array(text.utf8), allocator: ByteBufferAllocator())
    }

    /// A machine whose hello was decoded and is being authenticated.
    static func authenticating(_ hello: ClientMessage.Hello) -> SessionMachine {
        var machine = machine()
        _ = machine.frameRead(opcode: .text, data: frame(hello), now: at(milliseconds: 0))
        return machine
    }

    /// A machine whose hello was admitted (registered, not yet joined to its shard).
    static func admitted(_ hello: ClientMessage.Hello, _ facts: HelloFacts) -> SessionMachine {
        var machine = authenticating(hello)
        _ = machine.admitted(.admitted(replacing: nil), token: alice, hello: hello, facts: facts)
        return machine
    }

    /// The close a session that never opened performs for `code`.
    static func closed(_ code: WireErrorCode) -> [String] {
        let close = code.closeCode.rawValue
        return [
            "count \(SessionMetric.close(code: close))",
            "log \(Logger.Level.debug) closing session",
            "writeClose \(code.rawValue) \(close) \(code.rawValue) \(ConnectionEnd.closeAfter(.seconds(2)))",
        ]
    }

    // MARK: - hello

    @Test("a hello in a version this server speaks asks for authentication; frames behind it are held, unanswered")
    func helloAsksForAuthentication() {
        var machine = Self.machine()
        let hello = Self.hello(since: 5, epoch: Self.epoch, digest: Self.digest(5))
        let actions = machine.frameRead(opcode: .text, data: Self.frame(hello), now: Self.at(milliseconds: 0))
        #expect(Self.describe(actions) == ["authenticate \(hello)"])
        guard case .authenticating(let pending) = machine.phase else {
            Issue.record("expected authenticating, got \(machine.phase)")
            return
        }
        #expect(pending == hello)
        #expect(
            Self.describe(machine.frameRead(opcode: .text, data: Self.mutate(1), now: Self.at(milliseconds: 1))) == []
        )
        #expect(machine.pendingClose == nil)
    }

    @Test("a hello in a protocol version this server does not speak is protocol_version 4426", arguments: [0, 3])
    func unknownProtocolVersion(version: Int) {
        var machine = Self.machine()
        let hello = Self.hello(protocolVersion: version)
        let actions = machine.frameRead(opcode: .text, data: Self.frame(hello), now: Self.at(milliseconds: 0))
        #expect(Self.describe(actions) == [])
        #expect(Self.describe(machine.takePendingClose()) == Self.closed(.protocolVersion))
    }

    @Test("a second hello, to the open session or pipelined behind the first, is already_authenticated 4400")
    func secondHello() {
        var open = Self.machine(open: Self.live)
        let hello = Self.hello()
        #expect(
            Self.describe(open.frameRead(opcode: .text, data: Self.frame(hello), now: Self.at(milliseconds: 0))) == []
        )
        #expect(Self.describe(open.takePendingClose()) == Self.closed(.alreadyAuthenticated))

        var pipelining = Self.authenticating(hello)
        _ = pipelining.frameRead(opcode: .text, data: Self.frame(hello), now: Self.at(milliseconds: 1))
        let facts = Self.facts()
        let admitted = pipelining.admitted(.admitted(replacing: nil), token: Self.alice, hello: hello, facts: facts)
        let second = String(buffer: Self.frame(hello))
        #expect(Self.describe(admitted).last == "joinShard \(hello) \(facts) [\(second)]")
        #expect(Self.describe(pipelining.pipelined(Self.frame(hello), now: Self.at(milliseconds: 2))) == [])
        #expect(Self.describe(pipelining.takePendingClose()) == Self.closed(.alreadyAuthenticated))
    }

    // MARK: - The store's facts

    @Test("the store's facts: a known token is admitted; unknown is unauthorized 4401; a failed read internal 4000")
    func helloRead() {
        let hello = Self.hello(since: 10, epoch: Self.epoch, digest: Self.digest(10))
        let facts = Self.facts(digestAtSince: Self.digest(10))
        var known = Self.authenticating(hello)
        let admit = known.helloRead(.success(facts), hello: hello, durableRevision: 10)
        #expect(Self.describe(admit) == ["admit \(Self.alice) \(hello) \(facts)"])
        #expect(known.pendingClose == nil)

        var unknown = Self.authenticating(hello)
        #expect(
            Self.describe(unknown.helloRead(.success(Self.facts(token: nil)), hello: hello, durableRevision: 10)) == []
        )
        #expect(Self.describe(unknown.takePendingClose()) == Self.closed(.unauthorized))

        var failed = Self.authenticating(hello)
        let error = StorageError.database(operation: "read", detail: "disk")
        let read = failed.helloRead(.failure(error), hello: hello, durableRevision: 10)
        #expect(Self.describe(read) == ["log \(Logger.Level.error) hello could not read the store"])
        #expect(Self.describe(failed.takePendingClose()) == Self.closed(.internalError))
    }

    @Test("a since the store has and this node has not published yet waits for it; the store behind since does not")
    func awaitDurable() {
        let ahead = Self.hello(since: 12, epoch: Self.epoch, digest: Self.digest(12))
        let stored = Self.facts(head: 12, digestAtSince: Self.digest(12))
        var waiting = Self.authenticating(ahead)
        let wait = waiting.helloRead(.success(stored), hello: ahead, durableRevision: 11)
        #expect(Self.describe(wait) == ["awaitDurable 12 \(ahead) \(stored)"])
        #expect(Self.describe(waiting.helloReady(ahead, stored)) == ["admit \(Self.alice) \(ahead) \(stored)"])

        let behind = Self.facts(head: 11)
        var rewound = Self.authenticating(ahead)
        let admit = rewound.helloRead(.success(behind), hello: ahead, durableRevision: 11)
        #expect(Self.describe(admit) == ["admit \(Self.alice) \(ahead) \(behind)"])

        var late = Self.authenticating(ahead)
        _ = late.helloRead(.success(stored), hello: ahead, durableRevision: 11)
        _ = late.handshakeDeadlinePassed()
        #expect(Self.describe(late.helloReady(ahead, stored)) == [], "a session closed while it waited admits nothing")
    }

    // MARK: - Admission

    @Test("admitted: opened, deadline cancelled, logger tagged, the replaced session closed, then the shard joined")
    func admitted() {
        let hello = Self.hello(since: 5, protocolVersion: 1)
        let facts = Self.facts(digestAtSince: Self.digest(5))
        var machine = Self.authenticating(hello)
        _ = machine.frameRead(opcode: .text, data: Self.mutate(1), now: Self.at(milliseconds: 1))
        let replaced = ReplyAddress(shard: 1, session: 3)
        let actions = machine.admitted(.admitted(replacing: replaced), token: Self.alice, hello: hello, facts: facts)
        #expect(
            Self.describe(actions) == [
                "count \(SessionMetric.sessionOpened)",
                "cancelHandshakeDeadline",
                "tagLogger alice",
                "replaceSession \(replaced)",
                "joinShard \(hello) \(facts) [\(String(buffer: Self.mutate(1)))]",
            ]
        )
        #expect(machine.registration?.token == Self.alice)
        #expect(machine.registration?.instance == Self.instance)
        #expect(machine.registration?.stream == .all)
        #expect(machine.registration?.protocolVersion == 1)
        #expect(machine.identity?.token == Self.alice, "the session is open")
        #expect(machine.pendingClose == nil)

        var first = Self.authenticating(hello)
        let alone = first.admitted(.admitted(replacing: nil), token: Self.alice, hello: hello, facts: facts)
        #expect(Self.names(alone) == ["count", "cancelHandshakeDeadline", "tagLogger", "joinShard"])
    }

    @Test(
        "the registries' refusals close the session before it opens, and it joins no shard",
        arguments: [
            ("revoked", WireErrorCode.tokenRevoked),
            ("connection limit", WireErrorCode.connectionLimit),
            ("superseded", WireErrorCode.sessionReplaced),
        ]
    )
    func refused(refusal: String, code: WireErrorCode) {
        let hello = Self.hello()
        let facts = Self.facts()
        var machine = Self.authenticating(hello)
        let admission: SessionAdmission =
            switch refusal {
            case "revoked": .revoked
            case "connection limit": .connectionLimit(.perToken(name: "alice", limit: 1))
            default: .superseded
            }
        #expect(Self.describe(machine.admitted(admission, token: Self.alice, hello: hello, facts: facts)) == [])
        #expect(machine.registration == nil)
        #expect(Self.describe(machine.takePendingClose()) == Self.closed(code))
        let joined = machine.joinedShard(
            hello,
            facts,
            pipelined: [],
            head: 10,
            headDigest: Self.digest(10),
            durableRevision: 10,
            now: Self.at(milliseconds: 0)
        )
        #expect(Self.describe(joined) == [])
        #expect(machine.stream == nil)
    }

    // MARK: - welcome

    static func welcome(
        _ mode: ServerMessage.SyncMode,
        head: Revision = 10,
        protocolVersion: Int = WireProtocol.version,
        at milliseconds: Int64
    ) -> String {
        "send "
            + json(
                .welcome(
                    ServerMessage.Welcome(
                        protocolVersion: protocolVersion,
                        epoch: epoch,
                        head: head,
                        headDigest: digest(UInt8(head)),
                        mode: mode,
                        role: .viewer,
                        serverTime: Timestamp(millisecondsSince1970: milliseconds),
                        node: "node",
                        history: true
                    )
                )
            )
    }

    static func member(at milliseconds: Int64) -> String {
        let member = PresenceMember(
            id: "node/7",
            name: "alice",
            clientInstance: instance,
            node: "node",
            activity: .online,
            since: Timestamp(millisecondsSince1970: milliseconds)
        )
        return "presence \(PresenceChange.set(member))"
    }

    static func join(
        _ machine: inout SessionMachine,
        _ hello: ClientMessage.Hello,
        _ facts: HelloFacts,
        pipelined: [ByteBuffer] = [],
        at milliseconds: Int64
    ) -> [String] {
        describe(
            machine.joinedShard(
                hello,
                facts,
                pipelined: pipelined,
                head: 10,
                headDigest: digest(10),
                durableRevision: 10,
                now: at(milliseconds: milliseconds)
            )
        )
    }

    @Test("joined, backlog: welcome (epoch, head, d_head, mode, role, time, node), listed, catch-up, then pipelined")
    func joinedBacklog() {
        let hello = Self.hello(since: 5, epoch: Self.epoch, digest: Self.digest(5))
        let facts = Self.facts(digestAtSince: Self.digest(5))
        var machine = Self.admitted(hello, facts)
        #expect(
            Self.join(&machine, hello, facts, pipelined: [Self.mutate(1)], at: 500) == [
                Self.welcome(.backlog, at: 500), "flush", Self.member(at: 500), "pumpCatchUp",
                "replay [\(String(buffer: Self.mutate(1)))]", "flush",
            ]
        )
        #expect(machine.stream?.mode == .catchingUp(.backlog))
        #expect(machine.stream?.sent == 5)
        #expect(machine.stream?.target == 10)
    }

    @Test("joined, snapshot: welcome, then the presence list asked for, then the snapshot requested")
    func joinedSnapshot() {
        let hello = Self.hello(presence: .all)
        let facts = Self.facts()
        var machine = Self.admitted(hello, facts)
        #expect(
            Self.join(&machine, hello, facts, at: 20) == [
                Self.welcome(.snapshot, at: 20), "flush", "presence addReceiver", Self.member(at: 20),
                "readPresenceMembers", "requestSnapshot", "pumpCatchUp", "replay []", "flush",
            ]
        )
        #expect(machine.stream?.mode == .catchingUp(.snapshot))
        #expect(machine.stream?.awaitingSnapshot == true)
    }

    @Test("joined, acks: welcome live in the hello's protocol version, no stream; an observer is not listed")
    func joinedAcks() {
        let hello = Self.hello(since: 1, stream: .acks, presence: .observe, protocolVersion: 1)
        let facts = Self.facts()
        var machine = Self.admitted(hello, facts)
        #expect(
            Self.join(&machine, hello, facts, at: 0) == [
                Self.welcome(.live, protocolVersion: 1, at: 0), "flush", "presence addReceiver",
                "readPresenceMembers", "pumpCatchUp", "replay []", "flush",
            ]
        )
        #expect(machine.stream == nil)
    }
}
