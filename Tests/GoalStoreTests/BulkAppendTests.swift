import Foundation
import GoalModel
import GoalStore
import GoalTestSlots
import GoalTestSupport
import Testing

/// 100,000 engine-made changesets appended to SQLite in batches of 500, then recovered and read back as a backlog.
/// Timings are measured, never asserted; set GOALSTORE_BULK_REPORT=<file> to have them written there.
@Suite("Bulk append and recovery", .slotted)
struct BulkAppendTests {
    @Test("100,000 changesets in batches of 500 are recovered exactly", .timeLimit(.minutes(15)))
    func bulk() async throws {
        // Minutes of computing: off the cooperative pool, so the async tests running beside it keep their threads.
        let outcome = try await onOwnThread { try Self.appendRecoverAndRead() }
        #expect(outcome.unevenBatches == 0, "every batch holds 500 commits")
        #expect(outcome.appliedRevision == Revision(Self.total))
        #expect(outcome.recoveredStateMatches, "the recovered league is the one appended")
        #expect(outcome.recoveredDigestMatches)
        #expect(outcome.lastBacklogRevision == Revision(Self.total))
    }

    private static let total = 100_000

    /// What `appendRecoverAndRead` found, to be expected on by the test's own task.
    private struct Outcome: Sendable {
        var unevenBatches = 0
        var appliedRevision: Revision = 0
        var recoveredStateMatches = false
        var recoveredDigestMatches = false
        var lastBacklogRevision: Revision = 0
    }

    private static func appendRecoverAndRead() throws -> Outcome {
        var outcome = Outcome()
        let harness = try StoreHarness(.sqlite)
        let instances = (0..<10).map { ClientInstanceID("bulk-\($0)")! }
        let playerCount = 2_000
        let matchCount = 30_000
        var players: [PlayerID] = []
        var matches: [MatchID] = []
        var driver = LeagueDriver()
        driver.keepsFrames = false
        var appendTime = Duration.zero
        let clock = ContinuousClock()
        for index in 0..<total {
            let instance = instances[index % instances.count]
            if index < playerCount {
                let id = PlayerID()
                players.append(id)
                driver.mutate(.createPlayer(id: id, name: "player \(index)"), by: instance)
            } else if index < playerCount + matchCount {
                let id = MatchID()
                matches.append(id)
                let base = index * 7
                let home = [players[base % playerCount], players[(base + 1) % playerCount]]
                let away = [players[(base + 3) % playerCount], players[(base + 2) % playerCount]]
                driver.mutate(
                    .createMatch(id: id, homePlayers: home, awayPlayers: away, homeGoals: 0, awayGoals: 0),
                    by: instance
                )
            } else {
                let side: Side = index % 2 == 0 ? .home : .away
                driver.mutate(.adjustGoals(id: matches[index % matchCount], side: side, delta: 1), by: instance)
            }
            if (index + 1) % 500 == 0 {
                let batch = driver.takeBatch()
                if batch.commits.count != 500 { outcome.unevenBatches += 1 }
                appendTime += try clock.measure { try harness.storage.append(batch) }
            }
        }
        outcome.appliedRevision = driver.state.revision

        try harness.reopen()
        var recovered: DurableLeague?
        let recoveryTime = try clock.measure { recovered = try harness.storage.recover() }
        guard let league = recovered else { return outcome }
        outcome.recoveredStateMatches = league.state == driver.state
        outcome.recoveredDigestMatches = league.headDigest == driver.digest

        var after: Revision = 0
        var frameBytes = 0
        let backlogTime = try clock.measure {
            while true {
                let page = try harness.storage.backlog(after: after, upTo: league.head, limit: 1_000)
                guard let last = page.last else { break }
                frameBytes += page.reduce(0) { $0 + $1.bytes.count }
                after = last.revision
            }
        }
        outcome.lastBacklogRevision = after

        if let path = ProcessInfo.processInfo.environment["GOALSTORE_BULK_REPORT"] {
            let size =
                (try? FileManager.default.attributesOfItem(atPath: harness.databasePath)[.size] as? NSNumber)?.intValue
                ?? 0
            let report = """
                changesets: \(total) in batches of 500 (\(total / 500) transactions, synchronous=FULL)
                append total: \(appendTime)
                recover (reopen + rebuild \(playerCount) players, \(matchCount) matches): \(recoveryTime)
                backlog read of every frame, pages of 1000: \(backlogTime) (\(frameBytes) frame bytes)
                database file: \(size) bytes (WAL not included)

                """
            try Data(report.utf8).write(to: URL(fileURLWithPath: path))
        }
        return outcome
    }
}
