import GoalModel
import GoalStore
import GoalTestSupport
import GoalWire
import Testing

/// PROTOCOL.md §6: on the author's connection each ack comes right after the changeset it produced, also when the
/// engine commits many pipelined mutations in one batch (issue 14 point 1).
@Suite("acks follow their own changeset")
struct AckOrderTests {
    @Test("ten mutations committed in one batch: changeset r, its ack, changeset r+1, its ack, …")
    func eachAckFollowsItsChangeset() async throws {
        let storage = GatedStorage(wrapping: InMemoryLeagueStorage())
        try await withTestDaemon(storage: storage) { daemon in
            let author = try await TestSession.open(daemon, token: daemon.tokens.editor)
            // The first write is held, so the engine decides the next ten into one open batch behind it.
            storage.close(.append)
            defer { storage.open(.append) }  // a failing test must not leave the daemon's thread held
            try await author.send(author.mutation(seq: 1, base: 0, Make.createPlayer("first")))
            await storage.waitUntilHeld(.append)
            for seq in 2...11 {
                try await author.send(author.mutation(seq: UInt64(seq), base: 0, Make.createPlayer("p\(seq)")))
            }
            try await daemon.waitForMetric("goald_commits_total", atLeast: 11)
            storage.open(.append)

            let messages = try await author.collect { $0.isAck(seq: 11) }
            let order = messages.compactMap { message -> String? in
                switch message {
                case .changeset(let changeset): "changeset \(changeset.revision)"
                case .ack(let seq, let revision, _): "ack \(seq)@\(revision)"
                default: nil
                }
            }
            let expected = (1...11).flatMap { ["changeset \($0)", "ack \($0)@\($0)"] }
            #expect(order == expected)
        }
    }

    @Test("a rejection decided between two commits of one batch comes between their changesets")
    func rejectionKeepsItsPlace() async throws {
        let storage = GatedStorage(wrapping: InMemoryLeagueStorage())
        try await withTestDaemon(storage: storage) { daemon in
            let author = try await TestSession.open(daemon, token: daemon.tokens.editor)
            storage.close(.append)
            defer { storage.open(.append) }  // a failing test must not leave the daemon's thread held
            try await author.send(author.mutation(seq: 1, base: 0, Make.createPlayer("first")))
            await storage.waitUntilHeld(.append)
            try await author.send(author.mutation(seq: 2, base: 0, Make.createPlayer("second")))
            try await author.send(author.mutation(seq: 3, base: 0, Make.createPlayer("  ")))  // blank: rejected
            try await author.send(author.mutation(seq: 4, base: 0, Make.createPlayer("fourth")))
            try await daemon.waitForMetric("goald_commits_total", atLeast: 3)
            storage.open(.append)

            let messages = try await author.collect { $0.isAck(seq: 4) }
            let order = messages.compactMap { message -> String? in
                switch message {
                case .changeset(let changeset): "changeset \(changeset.revision)"
                case .ack(let seq, _, _): "ack \(seq)"
                case .rejected(let seq, _): "rejected \(seq)"
                default: nil
                }
            }
            #expect(order == ["changeset 1", "ack 1", "changeset 2", "ack 2", "rejected 3", "changeset 3", "ack 4"])
        }
    }
}
