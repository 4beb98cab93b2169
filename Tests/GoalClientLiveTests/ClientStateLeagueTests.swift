import Foundation
import GoalClient
import GoalClientSQLite
import GoalModel
import GoalTestSlots
import Testing

/// A `SQLiteClientStateStore` file belongs to one league (issue 37): the league it was first opened for. Opening it
/// for another league is refused, so one league's replica is never resumed, nor its outbox replayed, in another; a
/// file opened without naming a league is the default league's, as every file written before leagues was.
@Suite("SQLite client state: one league per file", .slotted)
struct ClientStateLeagueTests {
    private func queuedMutation(_ store: SQLiteClientStateStore) throws -> Mutation {
        let instance = try store.load().instance
        let mutation = Mutation(
            id: MutationID(instance: instance, seq: 1),
            base: 0,
            action: .createPlayer(id: PlayerID(), name: "Ada")
        )
        try store.recordQueued(mutation)
        return mutation
    }

    @Test func aFileOfOneLeagueIsRefusedForAnotherAndKeepsItsOutbox() throws {
        let directory = try temporaryStateDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }  // best effort: a temp directory
        let path = directory + "/state.sqlite"
        let office = try LeagueSlug(validating: "office")
        let store = try SQLiteClientStateStore.open(path: path, league: office, waitWhenBusy: false)
        let mutation = try queuedMutation(store)
        store.close()

        #expect(
            throws: ClientStateStoreError.unreadable("\(path) holds the state of league office, not of league home")
        ) {
            try SQLiteClientStateStore.open(path: path, league: try LeagueSlug(validating: "home"), waitWhenBusy: false)
        }
        #expect(throws: ClientStateStoreError.self, "nor the default league's") {
            try SQLiteClientStateStore.open(path: path, waitWhenBusy: false)
        }
        let again = try SQLiteClientStateStore.open(path: path, league: office, waitWhenBusy: false)
        #expect(again.league == office)
        #expect(try again.load().outbox.map(\.mutation) == [mutation])
        again.close()
    }

    @Test func aFileOpenedWithoutALeagueIsTheDefaultLeagues() throws {
        let directory = try temporaryStateDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }  // best effort: a temp directory
        let path = directory + "/state.sqlite"
        let store = try SQLiteClientStateStore.open(path: path, waitWhenBusy: false)
        _ = try queuedMutation(store)
        store.close()
        #expect(throws: ClientStateStoreError.self) {
            try SQLiteClientStateStore.open(
                path: path,
                league: try LeagueSlug(validating: "office"),
                waitWhenBusy: false
            )
        }
        let again = try SQLiteClientStateStore.open(path: path, league: .default, waitWhenBusy: false)
        #expect(try again.load().outbox.count == 1)
        again.close()
    }
}
