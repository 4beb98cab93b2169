import Foundation
import GoalClient
import GoalModel
import GoalReactive
import GoalStore
import GoalTestSlots
import GoalTestSupport
import GoalWire
import Synchronization
import Testing

/// `GoalClient.history(_:)` against a real goald (issue 20): a request made while the server is down waits for the
/// next session and is answered after the restart, from the same SQLite file.
@MainActor
@Suite("Live: entity history through GoalClient", .slotted)
struct LiveHistoryTests {
    @Test("a history request made while the daemon is down is sent after it restarts and answered")
    func requestWaitsForTheRestart() async throws {
        let directory = try TestCertificates.makeTemporaryDirectory()
        let path = directory + "/goald.sqlite"
        try await withLiveHarness(storage: try SQLiteLeagueStorage(path: path)) { harness in
            let daemon = try harness.running()
            let ada = PlayerID()
            let editor = try await harness.connectedStack(token: daemon.tokens.editor, instance: "history-editor")
            let created = try await LiveFailoverTests.perform(
                editor.client,
                .createPlayer(id: ada, name: "Ada"),
                base: 0
            )
            _ = try await LiveFailoverTests.perform(
                editor.client,
                .renamePlayer(id: ada, name: "Adele"),
                base: created.revision
            )
            let viewer = try await harness.connectedStack(token: daemon.tokens.viewer, instance: "history-viewer")

            await harness.stopDaemon()
            let answer = Mutex<Result<HistoryPageMessage, HistoryError>?>(nil)
            viewer.client.history(HistoryRequest(entity: .player(ada))).startWithResult { @Sendable result in
                answer.withLock { $0 = result }
            }
            _ = try await harness.startDaemon(storage: try SQLiteLeagueStorage(path: path))
            try await pollUntil("the history answer") { answer.withLock { $0 != nil } }
            let page = try #require(try answer.withLock { $0 }?.get())
            #expect(page.entries.map(\.revision) == [2, 1])
            #expect(
                page.entries.first?.fields == [FieldChange(field: .name, before: .name("Ada"), after: .name("Adele"))]
            )
            #expect(page.entries.map(\.author) == ["alice", "alice"])
        }
    }
}
