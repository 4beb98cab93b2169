import Foundation
import GoalClient
import GoalModel
import GoalReactive
import GoalTestSlots
import GoalTestSupport
import GoalWire
import Testing

@testable import GoalViewModels

/// View models over `LiveLeagueStore`s of two real `GoalClient`s (replica, outbox, sync) fed by one scripted
/// server: each client's commits reach the other's view models as `RowChanges`, and mutations waiting for the
/// server show as pending.
@MainActor
@Suite("Live stacks: two GoalClients over one scripted server", .slotted)
struct LiveClientStackTests {
    let mock = MockLeague()
    let scheduler = TestScheduler()

    func makeStore(_ server: ScriptedServer, _ instance: String) -> LiveLeagueStore {
        let client = GoalClient(
            configuration: ClientConfiguration(token: "t", serverName: "scripted"),
            transport: server,
            scheduler: scheduler,
            minter: InMemoryMutationIDMinter(instance: ClientInstanceID(instance)!)
        )
        client.start()
        return LiveLeagueStore(client: client, deliveryScheduler: scheduler)
    }

    @Test func commitsOfOneClientReachTheOthersViewModelsAndPendingIsShown() {
        let server = ScriptedServer(league: mock.league)
        let storeA = makeStore(server, "live-a")
        let storeB = makeStore(server, "live-b")
        scheduler.advance()
        #expect(storeA.status.value == .live(roundTrip: nil))
        #expect(storeB.replica.value == ReplicaState(mock.league.snapshot))

        let matchesA = MatchesViewModel(store: storeA)
        let matchesB = MatchesViewModel(store: storeB)
        let changesB = Recorder(matchesB.contentChanges)
        matchesA.active.value = true
        matchesB.active.value = true
        scheduler.advance()
        #expect(changesB.take() == [RowChanges(insertions: [0, 1])])
        #expect(matchesB.homePlayers(at: 0) == "C, A")

        // A's increment waits for the server: A shows the row as pending; B sees nothing yet.
        server.holding = true
        let edit = matchesA.editViewModel(for: matchesA.rows[0].id)
        let outcome = Outcome(edit.adjustGoalsAction.apply((.away, 2)))
        scheduler.advance()
        #expect(matchesA.isPending(at: 0))
        #expect(storeA.pendingMutations.value.map(\.isSent) == [true])
        #expect(changesB.take() == [])

        server.release()
        scheduler.advance()
        #expect(outcome.completed)
        #expect(matchesA.isPending(at: 0) == false)
        #expect(matchesA.result(at: 0) == "2 : 3")
        #expect(matchesB.result(at: 0) == "2 : 3")
        #expect(changesB.take() == [RowChanges(modifications: [0])])
        #expect(storeA.replica.value.digest == storeB.replica.value.digest)
        #expect(storeB.replica.value == ReplicaState(mock.league.snapshot))
    }
}
