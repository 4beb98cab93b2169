import Dispatch
import Foundation
import GoalModel
import GoalPostgres
import GoalStore
import GoalTestSlots
import GoalTestSupport
import NIOConcurrencyHelpers
import Testing

/// `append(_:onto:rebase:)` on a PostgreSQL store that other writers keep moving: refused attempts hand what was
/// written since to `rebase`, first without holding the league row, then inside one transaction that holds it.
@Suite(
    "PostgreSQL store: deciding a batch again",
    .enabled(if: PostgresTestServer.isEnabled, Comment(rawValue: PostgresTestServer.skipMessage)),
    .slotted
)
struct PostgresRebaseTests {
    @Test(
        "each refusal hands rebase exactly what was written since the last one; the row is held only for the last"
    )
    func refusalsUntilTheRowIsHeld() throws {
        let harness = try StoreHarness(.postgres)
        let database = try #require(harness.postgresDatabase)
        let nodeB = try PostgresLeagueStorage(configuration: database)
        defer { try? nodeB.close() }  // cleanup only

        var nodeA = LeagueDriver()
        nodeA.mutate(.createPlayer(id: PlayerID(), name: "ada"), by: .alpha)
        try harness.storage.append(nodeA.takeBatch())

        // B decided its batch on the empty league.
        var decidedByB = LeagueDriver()
        let bea = PlayerID()
        decidedByB.mutate(.createPlayer(id: bea, name: "bea"), by: .beta)

        let refusalsUnlocked = 3  // PostgresWriter.unlockedAttempts
        var handed: [[Revision]] = []
        var heads: [StoreHead] = []
        var recordsOfAlpha: [UInt64] = []
        var rowWasFree: [Bool] = []
        let head = try nodeB.append(decidedByB.takeBatch(), onto: StoreHead(revision: 0, version: 0)) {
            changes throws(StorageError) in
            handed.append(changes.commits.map(\.revision))
            heads.append(changes.head)
            recordsOfAlpha += changes.clientRecords.filter { $0.instance == .alpha }.map(\.lastSeq)
            rowWasFree.append(Self.leagueRowIsFree(database))
            // Decided again on everything the store holds now (what `changes` brought on top of what B knew).
            var again = LeagueDriver(recovered: try nodeB.recover())
            again.mutate(.createPlayer(id: bea, name: "bea"), by: .beta)
            if handed.count <= refusalsUnlocked {
                // A writes meanwhile: B's next attempt is refused too, the first held one included.
                nodeA.mutate(.createPlayer(id: PlayerID(), name: "al\(handed.count)"), by: .alpha)
                do { try harness.storage.append(nodeA.takeBatch()) } catch { Issue.record("A's append: \(error)") }
            }
            return again.takeBatch()
        }

        #expect(handed == [[1], [2], [3], [4]], "each refusal brings only the commit written since the previous one")
        #expect(heads.map(\.revision) == [1, 2, 3, 4])
        #expect(recordsOfAlpha == [1, 2, 3, 4], "A's exactly-once record comes along each time it changed")
        #expect(rowWasFree == [true, true, true, false], "the row is held only once the unlocked attempts are used up")
        #expect(head == StoreHead(revision: 5, version: 5))
        let league = try harness.storage.recover()
        #expect(league.head == 5)
        #expect(league.state.player(bea)?.name == "bea")
        #expect(league.state.allPlayers.count == 5)
    }

    @Test("a batch decided on the head is written in one attempt and rebase is never called")
    func unmovedHeadWritesAtOnce() throws {
        let harness = try StoreHarness(.postgres)
        var driver = LeagueDriver()
        driver.mutate(.createPlayer(id: PlayerID(), name: "ada"), by: .alpha)
        try harness.storage.append(driver.takeBatch())
        driver.mutate(.createPlayer(id: PlayerID(), name: "bea"), by: .beta)
        let storage = try #require(harness.storage as? PostgresLeagueStorage)
        var rebased = 0
        let head = try storage.append(driver.takeBatch(), onto: StoreHead(revision: 1, version: 1)) {
            _ throws(StorageError) in
            rebased += 1
            return StorageBatch()
        }
        #expect(rebased == 0)
        #expect(head == StoreHead(revision: 2, version: 2))
        #expect(try storage.recover().state == driver.state)
    }

    @Test("closing the store while a write is between two statements fails that write; it never hangs")
    func closeDuringARebase() throws {
        let harness = try StoreHarness(.postgres)
        let database = try #require(harness.postgresDatabase)
        let nodeB = try PostgresLeagueStorage(configuration: database)
        var nodeA = LeagueDriver()
        nodeA.mutate(.createPlayer(id: PlayerID(), name: "ada"), by: .alpha)
        try harness.storage.append(nodeA.takeBatch())
        var decidedByB = LeagueDriver()
        decidedByB.mutate(.createPlayer(id: PlayerID(), name: "bea"), by: .beta)
        let batch = decidedByB.takeBatch()

        // The write runs on a thread of its own, so a hang fails this test instead of stalling the run.
        let outcome = NIOLockedValueBox<Result<StoreHead, StorageError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let result = Result { () throws(StorageError) -> StoreHead in
                try nodeB.append(batch, onto: StoreHead(revision: 0, version: 0)) { _ throws(StorageError) in
                    try? nodeB.close()  // cannot fail: closing is idempotent
                    // Gives a store that shuts its event loop down under a running write the time to do so.
                    Thread.sleep(forTimeInterval: 0.5)
                    return batch
                }
            }
            outcome.withLockedValue { $0 = result }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 20) == .success, "the write hung on a store closed under it")
        let result = try #require(outcome.withLockedValue { $0 })
        #expect(throws: StorageError.self) { try result.get() }
        #expect(try harness.storage.logBounds().head == 1, "nothing of B's batch was written")
    }

    /// Whether another connection can lock the league row right now (`FOR UPDATE NOWAIT` fails when it is held).
    private static func leagueRowIsFree(_ database: PostgresStoreConfiguration) -> Bool {
        do {
            try PostgresTestServer.execute("SELECT 1 FROM league WHERE id = 1 FOR UPDATE NOWAIT", in: database)
            return true
        } catch {
            return false  // 55P03 lock_not_available: the row is held
        }
    }
}
