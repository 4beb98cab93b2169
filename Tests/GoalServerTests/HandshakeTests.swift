import Foundation
import GoalModel
import GoalServer
import GoalStore
import GoalTestSlots
import GoalTestSupport
import GoalTransport
import GoalWire
import Testing

@Suite("hello, welcome and the auth matrix", .slotted)
struct HandshakeTests {
    @Test("an editor's hello on an empty league is welcomed live with its role, epoch and the genesis digest")
    func welcomeOnEmptyLeague() async throws {
        try await withTestDaemon { daemon in
            let session = try await TestSession.open(daemon, token: daemon.tokens.editor)
            #expect(session.welcome.mode == .live)
            #expect(session.welcome.role == .editor)
            #expect(session.welcome.head == 0)
            #expect(session.welcome.headDigest == .genesis)
            #expect(session.welcome.epoch == (try daemon.storage.epoch()))
        }
    }

    @Test(
        "refusals: each bad hello gets its error code and close code",
        arguments: [
            ("", WireErrorCode.unauthorized, UInt16(4401)),
            ("gt_not-a-token", .unauthorized, 4401),
            ("revoked", .tokenRevoked, 4403),
        ]
    )
    func refusedTokens(token: String, code: WireErrorCode, close: UInt16) async throws {
        try await withTestDaemon { daemon in
            let secret = token == "revoked" ? daemon.tokens.revoked : token
            do {
                _ = try await TestSession.open(daemon, token: secret)
                Issue.record("the hello was accepted")
            } catch TestSessionError.refused(let message, let closed) {
                #expect(message.errorCode == code)
                #expect(closed == .closed(code: close, reason: code.rawValue))
            }
        }
    }

    @Test("an unsupported protocol version is refused with 4426, naming the versions spoken", arguments: [0, 3, 99])
    func protocolVersion(version: Int) async throws {
        try await withTestDaemon { daemon in
            let client = try await TestWebSocketClient.connect(try daemon.connector())
            let hello = ClientMessage.hello(
                .init(protocolVersion: version, token: daemon.tokens.editor, clientInstance: .random())
            )
            try await client.send(text: hello.encoded())
            let first = try ServerMessage.decode(Array(try await client.nextText().utf8))
            #expect(first.errorCode == .protocolVersion)
            guard case .error(_, let message) = first else { return }
            #expect(message == "protocol \(version) is not supported; this server speaks 1 to 2")
            #expect(try await client.next() == .closed(code: 4426, reason: "protocol_version"))
        }
    }

    @Test("a viewer may read but not mutate; an editor may not delete a player; an admin may")
    func permissionMatrix() async throws {
        try await withTestDaemon { daemon in
            let editor = try await TestSession.open(daemon, token: daemon.tokens.editor)
            let playerID = PlayerID()
            let created = try await editor.commit(seq: 1, base: 0, Make.createPlayer("Ada", id: playerID))
            #expect(created.last == .ack(seq: 1, revision: 1, noop: false))

            let viewer = try await TestSession.open(daemon, token: daemon.tokens.viewer, since: 0)
            #expect(viewer.welcome.role == .viewer)
            let viewerAnswer = try await viewer.commit(seq: 1, base: 1, Make.createPlayer("Bea"))
            guard case .rejected(1, let rejection) = viewerAnswer.last else {
                Issue.record("viewer got \(String(describing: viewerAnswer.last))")
                return
            }
            #expect(rejection.code == .unauthorized)

            let editorDelete = try await editor.commit(seq: 2, base: 1, .deletePlayer(id: playerID))
            guard case .rejected(2, let refusal) = editorDelete.last else {
                Issue.record("editor delete got \(String(describing: editorDelete.last))")
                return
            }
            #expect(refusal.code == .unauthorized)

            let admin = try await TestSession.open(daemon, token: daemon.tokens.admin, since: 1)
            let adminDelete = try await admin.commit(seq: 1, base: 1, .deletePlayer(id: playerID))
            #expect(adminDelete.last == .ack(seq: 1, revision: 2, noop: false))
        }
    }

    @Test("a second session with the same client instance replaces the first (4409)")
    func sessionReplaced() async throws {
        try await withTestDaemon { daemon in
            let instance = ClientInstanceID.random()
            let first = try await TestSession.open(daemon, token: daemon.tokens.editor, instance: instance)
            _ = try await TestSession.open(daemon, token: daemon.tokens.editor, instance: instance)
            let (messages, code) = try await first.readUntilClosed()
            #expect(messages.last?.errorCode == .sessionReplaced)
            #expect(code == 4409)
        }
    }

    @Test("a late hello on an older connection cannot take the instance from a newer session: it gets 4409 itself")
    func olderConnectionIsSuperseded() async throws {
        // The older connection waits without a hello while the newer one opens: on a loaded machine (the TSan run)
        // that took longer than the default 10 s handshake deadline, which then closed it first.
        var limits = ServerLimits()
        limits.handshakeTimeoutMilliseconds = 120_000
        try await withTestDaemon(limits: limits) { daemon in
            let instance = ClientInstanceID.random()
            // A client's abandoned attempt: connected first, its hello arrives after the retry's.
            let older = try await TestWebSocketClient.connect(try daemon.connector())
            let newer = try await TestSession.open(daemon, token: daemon.tokens.editor, instance: instance)
            let hello = ClientMessage.hello(.init(token: daemon.tokens.editor, clientInstance: instance))
            try await older.send(text: hello.encoded())
            let received = try await older.collect(until: { if case .closed = $0 { true } else { false } })
            guard case .text(let bytes) = received.first, let message = try? ServerMessage.decode(bytes) else {
                Issue.record("the older connection got \(received)")
                return
            }
            #expect(message.errorCode == .sessionReplaced)
            #expect(received.last == .closed(code: 4409, reason: "session_replaced"))
            // The newer session still speaks for the instance.
            let answer = try await newer.commit(seq: 1, base: 0, Make.createPlayer("Still mine"))
            #expect(answer.last == .ack(seq: 1, revision: 1, noop: false))
        }
    }

    @Test("a token revoked while its session is open closes that session with 4403")
    func revokedWhileOpen() async throws {
        try await withTestDaemon { daemon in
            let session = try await TestSession.open(daemon, token: daemon.tokens.editor2)
            let other = try await TestSession.open(daemon, token: daemon.tokens.editor)
            _ = try daemon.storage.revokeToken(named: "bob", at: Timestamp(millisecondsSince1970: 1))
            let (messages, code) = try await session.readUntilClosed(timeout: .seconds(15))
            #expect(messages.last?.errorCode == .tokenRevoked)
            #expect(code == 4403)
            let answer = try await other.commit(seq: 1, base: 0, Make.createPlayer("Still here"))
            #expect(answer.last == .ack(seq: 1, revision: 1, noop: false))
        }
    }

    @Test("a mutate pipelined right behind the hello is applied after the welcome")
    func pipelinedMutate() async throws {
        try await withTestDaemon { daemon in
            let client = try await TestWebSocketClient.connect(try daemon.connector())
            let instance = ClientInstanceID.random()
            let hello = ClientMessage.hello(.init(token: daemon.tokens.editor, clientInstance: instance, stream: .acks))
            let mutate = ClientMessage.mutate(.init(seq: 1, base: 0, action: Make.createPlayer("Piper")))
            try await client.send(text: hello.encoded())
            try await client.send(text: mutate.encoded())
            let first = try ServerMessage.decode(Array(try await client.nextText().utf8))
            let second = try ServerMessage.decode(Array(try await client.nextText().utf8))
            #expect(first.type == "welcome")
            #expect(second == .ack(seq: 1, revision: 1, noop: false))
        }
    }
}
