import GoalModel
import GoalServer
import GoalTestSlots
import GoalTestSupport
import GoalWire
import Testing

/// Issue 17 point 1, from real TLS sockets: protocol 2 sessions get live commits as lean `delta` frames, protocol 1
/// sessions on the same daemon get the full frames as before, and every delta expands, against the league at the
/// revision before, to exactly the full changeset (same digest chain). Compressed, a one-goal delta is at most 300
/// bytes on the wire.
@Suite("lean changesets (protocol 2)", .slotted)
struct LeanChangesetTests {
    /// A league the tests play: two players, a match between them, a goal, a rename, a second match and its deletion.
    static func play(_ writer: TestSession) async throws -> Revision {
        let ada = PlayerID()
        let bea = PlayerID()
        let cid = PlayerID()
        let match = MatchID()
        let other = MatchID()
        let actions: [MutationAction] = [
            Make.createPlayer("Ada", id: ada),
            Make.createPlayer("Béa", id: bea),
            Make.createPlayer("Cid", id: cid),
            Make.createMatch(id: match, home: [ada], away: [bea]),
            .adjustGoals(id: match, side: .home, delta: 1),
            .renamePlayer(id: bea, name: "Béatrice"),
            .updateMatch(id: match, MatchUpdate(awayPlayers: [bea, cid], awayGoals: 3)),
            Make.createMatch(id: other, home: [cid], away: [ada], homeGoals: 2, awayGoals: 2),
            .deleteMatch(id: other),
        ]
        var revision: Revision = 0
        for (index, action) in actions.enumerated() {
            let answers = try await writer.commit(seq: UInt64(index + 1), base: revision, action)
            guard case .ack(_, let committed, false)? = answers.last else {
                throw TestClientError.unexpected("\(action) was not committed: \(answers)")
            }
            revision = committed
        }
        return revision
    }

    @Test("a protocol 2 session gets deltas that expand to the full changesets a protocol 1 session gets")
    func deltasExpandToFullChangesets() async throws {
        try await withTestDaemon { daemon in
            let lean = try await TestSession.open(daemon, token: daemon.tokens.viewer, protocolVersion: 2)
            let full = try await TestSession.open(daemon, token: daemon.tokens.viewer, protocolVersion: 1)
            #expect(lean.welcome.protocolVersion == 2)
            #expect(full.welcome.protocolVersion == 1)
            let writer = try await TestSession.open(daemon, token: daemon.tokens.editor, stream: .acks)
            let head = try await Self.play(writer)
            var league = LeagueState()
            var digest = Digest.genesis
            for revision in 1...head {
                guard case .changeset(let changeset) = try await full.next(),
                    case .delta(let delta) = try await lean.next()
                else {
                    Issue.record("revision \(revision): expected a changeset and a delta")
                    return
                }
                #expect(changeset.revision == revision && delta.revision == revision)
                #expect(delta.digest == changeset.digest)
                #expect(try delta.expand(in: league) == changeset, "revision \(revision)")
                #expect(ChangesetFrame.verify(try delta.expand(in: league), previousDigest: digest))
                try league.apply(changeset)
                digest = changeset.digest
            }
            await lean.client.disconnect()
            await full.client.disconnect()
            await writer.client.disconnect()
        }
    }

    @Test("a protocol 2 session that resumes gets its backlog as full changesets, then live commits as deltas")
    func backlogStaysFull() async throws {
        try await withTestDaemon { daemon in
            let writer = try await TestSession.open(daemon, token: daemon.tokens.editor, stream: .acks)
            let head = try await Self.play(writer)
            let lean = try await TestSession.open(
                daemon,
                token: daemon.tokens.viewer,
                since: 0,
                digest: .genesis,
                protocolVersion: 2
            )
            #expect(lean.welcome.mode == .backlog)
            let backlog = try await lean.collect { if case .caughtUp = $0 { true } else { false } }
            #expect(backlog.compactMap(\.changesetRevision) == Array(1...head))
            let player = PlayerID()
            _ = try await writer.commit(seq: 100, base: head, Make.createPlayer("Dora", id: player))
            guard case .delta(let delta) = try await lean.next() else {
                Issue.record("the live commit after the backlog did not come as a delta")
                return
            }
            #expect(delta.revision == head + 1)
            #expect(delta.changes == [.player(id: player, name: "Dora", nameKey: "dora")])
            await lean.client.disconnect()
            await writer.client.disconnect()
        }
    }

    @Test("compressed, a one-goal delta is at most 300 bytes on the wire (header included)")
    func oneGoalUnder300Bytes() async throws {
        try await withTestDaemon { daemon in
            let client = try await PermessageDeflateTests.open(
                daemon,
                token: daemon.tokens.viewer,
                offer: PermessageDeflateTests.browserOffer,
                protocolVersion: 2
            )
            let writer = try await TestSession.open(daemon, token: daemon.tokens.editor, stream: .acks)
            let home = [PlayerID(), PlayerID()]
            let away = [PlayerID(), PlayerID()]
            for (seq, id) in (home + away).enumerated() {
                _ = try await writer.commit(
                    seq: UInt64(seq + 1),
                    base: Revision(seq),
                    Make.createPlayer("P\(seq)", id: id)
                )
            }
            let match = MatchID()
            _ = try await writer.commit(seq: 5, base: 4, Make.createMatch(id: match, home: home, away: away))
            _ = try await writer.commit(seq: 6, base: 5, .adjustGoals(id: match, side: .home, delta: 1))
            var last: (wire: Int, inflated: [UInt8])?
            for _ in 1...6 {
                let frame = try await PermessageDeflateTests.nextFrame(client)
                guard frame.compressed else {
                    Issue.record("a changeset came uncompressed")
                    return
                }
                // + the server frame's header: 2 bytes below 126 bytes of payload, 4 below 64 KiB (RFC 6455 §5.2).
                let header = frame.wirePayload < 126 ? 2 : 4
                last = (frame.wirePayload + header, frame.bytes)
            }
            let oneGoal = try #require(last)
            guard case .delta(let delta) = try ServerMessage.decode(oneGoal.inflated) else {
                Issue.record("the goal did not come as a delta")
                return
            }
            #expect(delta.changes == [.match(id: match, MatchUpdate(homeGoals: 1))])
            #expect(oneGoal.wire <= 300, "a one-goal delta took \(oneGoal.wire) bytes on the wire")
            await client.disconnect()
            await writer.client.disconnect()
        }
    }
}
