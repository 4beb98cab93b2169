import GoalModel
import GoalStore
import GoalTestSlots
import GoalTestSupport
import GoalWire
import Testing

/// PROTOCOL.md §6: on the author's connection each ack comes right after the changeset it produced, also when the
/// engine commits many pipelined mutations in one batch (issue 14 point 1).
@Suite("acks follow their own changeset", .slotted)
struct AckOrderTests {
    /// An author whose first mutation ("first", seq 1) is being written while the write is held: `pipeline` sends
    /// more, which the engine decides into one open batch behind it; once `decided` commits exist the write goes
    /// on. Returns what the author read up to the ack of `lastSeq`, as "changeset r" / "ack s@r" / "rejected s".
    static func pipelined(
        decided: Int,
        lastSeq: UInt64,
        _ pipeline: (TestSession) async throws -> Void
    ) async throws -> [String] {
        let storage = GatedStorage(wrapping: InMemoryLeagueStorage())
        return try await withTestDaemon(storage: storage) { daemon in
            let author = try await TestSession.open(daemon, token: daemon.tokens.editor)
            storage.close(.append)
            defer { storage.open(.append) }  // a failing test must not leave the daemon's thread held
            try await author.send(author.mutation(seq: 1, base: 0, Make.createPlayer("first")))
            await storage.waitUntilHeld(.append)
            try await pipeline(author)
            try await daemon.waitForMetric("goald_commits_total", atLeast: decided)
            storage.open(.append)
            return try await author.collect { $0.isAck(seq: lastSeq) }.compactMap { message -> String? in
                switch message {
                case .changeset(let changeset): "changeset \(changeset.revision)"
                case .ack(let seq, let revision, _): "ack \(seq)@\(revision)"
                case .rejected(let seq, _): "rejected \(seq)"
                default: nil
                }
            }
        }
    }

    @Test("ten mutations committed in one batch: changeset r, its ack, changeset r+1, its ack, …")
    func eachAckFollowsItsChangeset() async throws {
        let order = try await Self.pipelined(decided: 11, lastSeq: 11) { author in
            for seq in UInt64(2)...11 {
                try await author.send(author.mutation(seq: seq, base: 0, Make.createPlayer("p\(seq)")))
            }
        }
        #expect(order == (1...11).flatMap { ["changeset \($0)", "ack \($0)@\($0)"] })
    }

    @Test("a rejection decided between two commits of one batch comes between their changesets")
    func rejectionKeepsItsPlace() async throws {
        let order = try await Self.pipelined(decided: 3, lastSeq: 4) { author in
            try await author.send(author.mutation(seq: 2, base: 0, Make.createPlayer("second")))
            try await author.send(author.mutation(seq: 3, base: 0, Make.createPlayer("  ")))  // blank: rejected
            try await author.send(author.mutation(seq: 4, base: 0, Make.createPlayer("fourth")))
        }
        #expect(order == ["changeset 1", "ack 1@1", "changeset 2", "ack 2@2", "rejected 3", "changeset 3", "ack 4@3"])
    }
}
