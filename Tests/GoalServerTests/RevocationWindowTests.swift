import GoalModel
import GoalServer
import GoalStore
import GoalTestSlots
import GoalTestSupport
import GoalWire
import Testing

/// Issue 14 point 6: a token revoked between a hello's look-up and its session's registration is re-checked at
/// registration, so no session outlives its token's revocation.
@Suite("revocation has no window", .slotted)
struct RevocationWindowTests {
    @Test("a hello whose token is revoked while it is being authenticated is refused with 4403")
    func revokedDuringHello() async throws {
        let storage = GatedStorage(wrapping: InMemoryLeagueStorage())
        // One loop: the witness session below being closed proves the revocation has run on the hello's loop.
        let oneLoop: (inout ServerConfiguration) -> Void = { $0.eventLoopThreads = 1 }
        try await withTestDaemon(storage: storage, configure: oneLoop) { daemon in
            let witness = try await TestSession.open(daemon, token: daemon.tokens.viewer)
            // Hold the next hello after its token look-up (the log bounds are read next, off the event loop).
            storage.close(.logBounds)
            defer { storage.open(.logBounds) }  // a failing test must not leave the daemon's thread held
            let hello = Task { try await TestSession.open(daemon, token: daemon.tokens.viewer) }
            await storage.waitUntilHeld(.logBounds)
            _ = try storage.revokeToken(named: "vera", at: Timestamp(millisecondsSince1970: 1_767_225_700_000))
            // The daemon's token refresh (every 2 s) closes the registered session of the token...
            let (_, witnessClose) = try await witness.readUntilClosed()
            #expect(witnessClose == 4403)
            // ...before the held hello goes on to register.
            storage.open(.logBounds)
            do {
                let late = try await hello.value
                let (messages, code) = try await late.readUntilClosed(timeout: .seconds(10))
                Issue.record("the hello was welcomed after its token was revoked: \(messages), then close \(code ?? 0)")
            } catch TestSessionError.refused(let message, let close) {
                guard case .error(let code, _) = message else {
                    Issue.record("refused with \(message)")
                    return
                }
                #expect(code == .tokenRevoked)
                #expect(close == .closed(code: 4403, reason: "token_revoked"))
            }
        }
    }
}
