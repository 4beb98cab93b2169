import Foundation
import GoalModel
import GoalServer
import GoalStore
import GoalTestSlots
import GoalTestSupport
import GoalTransport
import GoalWire
import Testing

@Suite("graceful shutdown", .slotted)
struct ShutdownTests {
    @Test(
        "a graceful stop under load: sessions get 1001, and every acknowledged mutation is in the store after restart"
    )
    func shutdownUnderLoad() async throws {
        let directory = try TestCertificates.makeTemporaryDirectory()
        let path = directory + "/goald.sqlite"
        let daemon = try await TestDaemon.start(storage: try SQLiteLeagueStorage(path: path))
        let writing = ManagedCounter()
        let acked = try await withThrowingTaskGroup(of: [UInt64: Revision].self) { group in
            for writer in 0..<4 {
                group.addTask {
                    let session = try await TestSession.open(daemon, token: daemon.tokens.editor, stream: .acks)
                    var acks: [UInt64: Revision] = [:]
                    var seq: UInt64 = 1
                    // Commit one after another until the shutdown ends the session.
                    while let answers = try? await session.commit(
                        seq: seq,
                        base: 0,
                        Make.createPlayer("w\(writer)-\(seq)")
                    ) {
                        guard case .ack(let s, let revision, _) = answers.last else { break }
                        acks[s] = revision
                        if seq == 1 { writing.increment() }
                        seq += 1
                    }
                    return acks
                }
            }
            // Stop while all four are writing.
            try await pollUntil("four writes under way", timeout: .seconds(30)) { writing.value == 4 }
            try await Task.sleep(for: .milliseconds(200))
            try await daemon.stop().get()
            return try await group.reduce(into: [[UInt64: Revision]]()) { $0.append($1) }
        }
        let recovered = try SQLiteLeagueStorage(path: path)
        let state = try recovered.recover().state
        let revisions = acked.flatMap(\.values)
        #expect(!revisions.isEmpty)
        #expect(revisions.allSatisfy { $0 <= state.revision })
        #expect(Set(revisions).count == revisions.count)
        // Every acked player is there exactly once (names are unique by key).
        #expect(state.allPlayers.count == Int(state.revision))
        try recovered.close()
    }
}
