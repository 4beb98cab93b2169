import GoalModel
import GoalPostgres
import GoalServer
import GoalStore
import GoalTestSupport
import GoalWire
import Testing

/// goald over the PostgreSQL store, from TLS sockets (issue 15 point 1): the daemon needs nothing else.
@Suite(
    "goald on PostgreSQL",
    .enabled(if: PostgresTestServer.isEnabled, Comment(rawValue: PostgresTestServer.skipMessage))
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
