import GoalModel
import GoalPostgres
import GoalServer
import GoalStore
import GoalTestSlots
import GoalTestSupport
import GoalWire
import Testing

/// goald over the PostgreSQL store, from TLS sockets (issue 15 point 1): the daemon needs nothing else.
@Suite(
    "goald on PostgreSQL",
    .enabled(if: PostgresTestServer.isEnabled, Comment(rawValue: PostgresTestServer.skipMessage)),
    .slotted
)
struct PostgresDaemonTests {
    @Test("commits are acked and fanned out; a daemon restarted on the database resumes a client from its log")
    func commitsAndResumes() async throws {
        let database = try PostgresTestServer.makeDatabase()
        defer { try? PostgresTestServer.dropDatabase(database) }  // cleanup only
        let (epoch, digest) = try await withTestDaemon(storage: try PostgresLeagueStorage(configuration: database)) {
            daemon in
            let watcher = try await TestSession.open(daemon, token: daemon.tokens.viewer)
            let editor = try await TestSession.open(daemon, token: daemon.tokens.editor, stream: .acks)
            for (seq, name) in [(UInt64(1), "Ada"), (2, "Bea")] {
                try await editor.send(editor.mutation(seq: seq, base: seq - 1, Make.createPlayer(name)))
                #expect(try await editor.next() == .ack(seq: seq, revision: seq, noop: false))
            }
            let seen = try await watcher.collect { message in
                if case .changeset(let changeset) = message { changeset.revision == 2 } else { false }
            }
            guard case .changeset(let second) = seen.last else { throw PostgresDaemonTestError.noChangeset }
            return (watcher.welcome.epoch, second.digest)
        }
        try await withTestDaemon(storage: try PostgresLeagueStorage(configuration: database)) { daemon in
            let resumed = try await TestSession.open(
                daemon,
                token: daemon.tokens.viewer,
                since: 1,
                epoch: epoch,
                digest: nil
            )
            #expect(resumed.welcome.mode == .backlog)
            #expect(resumed.welcome.head == 2 && resumed.welcome.headDigest == digest)
            let messages = try await resumed.collect { $0 == .caughtUp(head: 2) }
            #expect(messages.compactMap { if case .changeset(let c) = $0 { c.revision } else { nil } } == [Revision(2)])
        }
    }
}

enum PostgresDaemonTestError: Error {
    case noChangeset
}

/// PostgreSQL unavailable under a running daemon (issue 15 point 7): sessions stay open, new mutations are answered
/// `overloaded`, the batch in flight is written once the database is back, and no ack precedes its commit.
@Suite(
    "goald while PostgreSQL is down",
    .enabled(if: PostgresTestServer.isEnabled, Comment(rawValue: PostgresTestServer.skipMessage)),
    .slotted
)
struct PostgresOutageTests {
    @Test("the session stays open; a mutation during the outage is overloaded; the one in flight is acked after it")
    func outage() async throws {
        let database = try PostgresTestServer.makeDatabase()
        defer { try? PostgresTestServer.dropDatabase(database) }  // cleanup only
        try await withTestDaemon(storage: try PostgresLeagueStorage(configuration: database)) { daemon in
            let editor = try await TestSession.open(daemon, token: daemon.tokens.editor, stream: .acks)
            try await editor.send(editor.mutation(seq: 1, base: 0, Make.createPlayer("Ada")))
            #expect(try await editor.next() == .ack(seq: 1, revision: 1, noop: false))

            try PostgresTestServer.refuseConnections(to: database)
            var refused = true
            defer { if refused { try? PostgresTestServer.allowConnections(to: database) } }  // a failing test's cleanup
            try await editor.send(editor.mutation(seq: 2, base: 1, Make.createPlayer("Bea")))
            try await daemon.waitForMetric("goald_store_unavailable_total", atLeast: 1)
            #expect(daemon.metric("goald_store_available") == 0)

            let third = editor.mutation(seq: 3, base: 1, Make.createPlayer("Cy"))
            try await editor.send(third)
            #expect(try await editor.next() == .overloaded(seq: 3, retryAfterMilliseconds: 1_000))
            #expect(daemon.metric("goald_store_available") == 0, "seq 2 is still waiting for the store")

            try PostgresTestServer.allowConnections(to: database)
            refused = false
            #expect(try await editor.next() == .ack(seq: 2, revision: 2, noop: false), "acked once committed")
            try await daemon.waitForMetric("goald_store_available", atLeast: 1)
            try await editor.send(third)
            #expect(try await editor.next() == .ack(seq: 3, revision: 3, noop: false))
            let league = try daemon.storage.recover()
            #expect(league.head == 3)
            #expect(league.state.allPlayers.map(\.name).sorted() == ["Ada", "Bea", "Cy"])
        }
    }
}

/// Two goald nodes on one PostgreSQL database (issue 15 point 4): tokens live in the store, so a revocation made
/// anywhere closes the token's sessions on every node at its next token refresh (every 2 s).
@Suite(
    "goald nodes sharing tokens in PostgreSQL",
    .enabled(if: PostgresTestServer.isEnabled, Comment(rawValue: PostgresTestServer.skipMessage)),
    .slotted
)
struct PostgresSharedTokenTests {
    @Test(
        "a token revoked in the database, as goald token revoke --store does from another machine, closes its sessions on both nodes"
    )
    func revocationReachesEveryNode() async throws {
        let database = try PostgresTestServer.makeDatabase()
        defer { try? PostgresTestServer.dropDatabase(database) }  // cleanup only
        try await withTestDaemon(storage: try PostgresLeagueStorage(configuration: database)) { nodeA in
            try await withTestDaemon(storage: try PostgresLeagueStorage(configuration: database)) { nodeB in
                let onA = try await TestSession.open(nodeA, token: nodeA.tokens.editor)
                let onB = try await TestSession.open(nodeB, token: nodeB.tokens.editor)
                let viewerOnB = try await TestSession.open(nodeB, token: nodeB.tokens.viewer)

                let elsewhere = try PostgresLeagueStorage(configuration: database)
                defer { try? elsewhere.close() }  // cleanup only
                _ = try elsewhere.revokeToken(named: "alice", at: Timestamp(millisecondsSince1970: 1_800_000_000_000))

                #expect(try await onA.readUntilClosed().1 == 4403)
                #expect(try await onB.readUntilClosed().1 == 4403)
                // Another token's session on the same node is untouched: it still gets answers.
                try await viewerOnB.send(viewerOnB.mutation(seq: 1, base: 0, Make.createPlayer("Ada")))
                guard case .rejected(1, let rejection) = try await viewerOnB.next() else {
                    Issue.record("the viewer's session did not answer")
                    return
                }
                #expect(rejection.code == .unauthorized)
            }
        }
    }
}
