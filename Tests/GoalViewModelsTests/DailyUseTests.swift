import Foundation
@_spi(Testing) import GoalClient
import GoalModel
import GoalReactive
import GoalTestSlots
import GoalTestSupport
import Testing

@testable import GoalViewModels

/// Issue 16 (goal-client as a daily tool), the view-model side of points 1, 2, 4 and 7: refusals worded as the
/// CLI words them, the record beside the rating, a deleted selection said out loud, optimistic pending goals.
@MainActor
@Suite("Daily use: refusals, rankings record, deleted selection, optimistic goals", .slotted)
struct DailyUseTests {
    let mock = MockLeague()

    // MARK: Point 2: every refusal is visible

    @Test func aRefusedMinusAtZeroSaysWhyAsTheCLIDoes() {
        let mine = mock.store("mine")
        let matches = MatchesViewModel(store: mine)
        let alerts = Recorder(matches.alertMessages)
        matches.active.value = true
        // Match 2 is 0 : 1.
        _ = Outcome(matches.adjustGoalsAction.apply(GoalAdjustment(match: mock.match2, side: .home, delta: -1)))
        #expect(
            alerts.values == ["refused (goals_out_of_range): home goals would be -1; goals must stay within 0…999"]
        )
        #expect(matches.row(for: mock.match2)?.result == "0 : 1")
        #expect(matches.row(for: mock.match2)?.isPending == false)
    }

    @Test func aViewersPlusIsRefusedWithTheRoleAndWhatToDo() {
        let viewer = mock.store("viewer", role: .viewer)
        let matches = MatchesViewModel(store: viewer)
        let alerts = Recorder(matches.alertMessages)
        matches.active.value = true
        _ = Outcome(matches.adjustGoalsAction.apply(GoalAdjustment(match: mock.match1, side: .home, delta: 1)))
        #expect(alerts.values.count == 1)
        let message = alerts.values.first ?? ""
        #expect(message.hasPrefix("refused (unauthorized): the viewer role may not "), "\(message)")
        #expect(message.hasSuffix("; ask an admin for an editor token"), "\(message)")
        #expect(matches.row(for: mock.match1)?.result == "2 : 1")
    }

    // MARK: Point 7: played, won, drawn, lost beside the rating

    @Test func rankingsShowPlayedWonDrawnLost() {
        let rankings = RankingsViewModel(store: mock.store())
        rankings.active.value = true
        let record = rankings.rows.map { "\($0.name) \($0.rating) \($0.played) \($0.won) \($0.drawn) \($0.lost)" }
        #expect(record == ["A 10.00 2 2 0 0", "C 5.00 2 1 0 1", "D 5.00 2 1 0 1", "B 0.00 2 0 0 2"])
    }

    // MARK: Point 1: a deleted selection is said out loud; a pending edit shows on its row

    @Test func aSelectedMatchDeletedBySomeoneElseSaysSo() {
        let mine = mock.store("mine")
        let theirs = mock.store("theirs")
        let matches = MatchesViewModel(store: mine)
        let alerts = Recorder(matches.alertMessages)
        matches.active.value = true
        matches.select(mock.match1)
        _ = Outcome(theirs.submit(.deleteMatch(id: mock.match1), base: theirs.replica.value.revision))
        #expect(alerts.values == ["C, A vs D, B was deleted by someone else"])
        #expect(matches.cursor.value.id == mock.match2)
        #expect(matches.cursor.value.removedByOther == mock.match1)
        // A match that is not selected leaves quietly; so does one this client deletes itself.
        let third = MatchID()
        _ = Outcome(
            theirs.submit(
                .createMatch(id: third, homePlayers: [mock.a], awayPlayers: [mock.b], homeGoals: 0, awayGoals: 0),
                base: theirs.replica.value.revision
            )
        )
        _ = Outcome(theirs.submit(.deleteMatch(id: third), base: theirs.replica.value.revision))
        if let selected = matches.selectedMatch { _ = Outcome(matches.deleteAction.apply(selected)) }
        #expect(alerts.values == ["C, A vs D, B was deleted by someone else"])
    }

    @Test func aSelectedPlayerDeletedBySomeoneElseSaysSo() {
        let mine = mock.store("mine")
        let theirs = mock.store("theirs")
        let eve = PlayerID()
        _ = Outcome(theirs.submit(.createPlayer(id: eve, name: "Eve"), base: theirs.replica.value.revision))
        let players = ManagePlayersViewModel(store: mine)
        let alerts = Recorder(players.alertMessages)
        players.active.value = true
        players.select(eve)
        _ = Outcome(theirs.submit(.deletePlayer(id: eve), base: theirs.replica.value.revision))
        #expect(alerts.values == ["Eve was deleted by someone else"])
        #expect(players.cursor.value.id != eve)
    }

    // MARK: Point 4: a pending goal shows the score it will have

    @Test func aPendingGoalShowsItsOptimisticScoreMarkedPendingAndIsNeverCountedTwice() {
        let mine = mock.store("mine")
        let matches = MatchesViewModel(store: mine)
        matches.active.value = true
        mine.holdsMutations = true
        let press = GoalAdjustment(match: mock.match2, side: .home, delta: 1)
        _ = Outcome(matches.adjustGoalsAction.apply(press))
        _ = Outcome(matches.adjustGoalsAction.apply(press))
        #expect(matches.row(for: mock.match2)?.result == "2 : 1")
        #expect(matches.row(for: mock.match2)?.isPending == true)
        #expect(matches.row(for: mock.match1)?.isPending == false, "only the row the edit belongs to is marked")
        // A minus that would go below 0 is not shown (the server will refuse it).
        _ = Outcome(matches.adjustGoalsAction.apply(GoalAdjustment(match: mock.match1, side: .away, delta: -2)))
        #expect(matches.row(for: mock.match1)?.result == "2 : 1")
        // The server commits each changeset before its ack: the goal is in the replica, not added again.
        mine.releaseHeldMutations()
        #expect(mine.replica.value.matches[mock.match2]?.homeGoals == 2)
        #expect(matches.row(for: mock.match2)?.result == "2 : 1")
        #expect(matches.row(for: mock.match2)?.isPending == false)
    }

    @Test func optimisticScoreSkipsMutationsAlreadyInTheReplica() {
        let store = mock.store()
        let replica = store.replica.value
        let instance = ClientInstanceID("mine")!
        func pending(_ seq: UInt64, _ action: MutationAction) -> PendingMutation {
            PendingMutation(
                mutation: Mutation(id: MutationID(instance: instance, seq: seq), base: 6, action: action),
                isSent: true
            )
        }
        let list = [
            pending(1, .adjustGoals(id: mock.match1, side: .away, delta: 3)),
            pending(2, .updateMatch(id: mock.match1, MatchUpdate(homeGoals: 7))),
            pending(3, .adjustGoals(id: mock.match2, side: .home, delta: 1)),
        ]
        guard let match1 = replica.matches[mock.match1], let match2 = replica.matches[mock.match2] else {
            Issue.record("fixture")
            return
        }
        let all = OptimisticScore(list, replica: replica, applied: [])
        #expect(all.result(of: match1) == "7 : 4")
        #expect(all.result(of: match2) == "1 : 1")
        let some = OptimisticScore(list, replica: replica, applied: [list[2].id])
        #expect(some.result(of: match2) == "0 : 1")
    }
}

/// Issue 16, point 4: the connection at a glance.
@MainActor
@Suite("ConnectionViewModel: countdown, phase, marker, stale, reconnect now", .slotted)
struct ConnectionAtAGlanceTests {
    let mock = MockLeague()

    @Test func theReconnectCountdownTicksEverySecond() {
        let store = mock.store()
        let clock = TestScheduler()
        let viewModel = ConnectionViewModel(store: store, clock: clock)
        let summaries = Recorder(viewModel.summary)
        store.setStatus(.live(roundTrip: 0.012))
        #expect(viewModel.summary.value == "live", "the round-trip time is shown once, on its own")
        #expect(viewModel.roundTripText.value == "12 ms")
        store.setStatus(.reconnecting(attempt: 2, delay: 2.5))
        clock.advance(by: 0.4)
        #expect(viewModel.summary.value == "reconnecting in 3 s (retry 2)")
        clock.advance(by: 0.1)
        clock.advance(by: 1)
        clock.advance(by: 1)
        store.setStatus(.connecting(attempt: 2))
        clock.advance(by: 10)
        #expect(
            summaries.values == [
                "live", "reconnecting in 3 s (retry 2)", "reconnecting in 2 s (retry 2)",
                "reconnecting in 1 s (retry 2)", "reconnecting now", "connecting (retry 2)",
            ]
        )
    }

    @Test func phaseMarkerAndStaleFollowTheStatus() {
        let store = mock.store()
        let viewModel = ConnectionViewModel(store: store, clock: TestScheduler())
        let cases: [(ConnectionStatus, ConnectionPhase, String, Bool)] = [
            (.live(roundTrip: nil), .live, "[LIVE]", false),
            (.connecting(attempt: 0), .connecting, "[CONNECTING]", true),
            (.syncing, .connecting, "[CONNECTING]", true),
            (.reconnecting(attempt: 1, delay: 1), .reconnecting, "[RECONNECTING]", true),
            (.stopped(.requested), .stopped, "[STOPPED]", true),
        ]
        for (status, phase, marker, stale) in cases {
            store.setStatus(status)
            #expect(viewModel.phase.value == phase)
            #expect(viewModel.marker.value == marker)
            #expect(viewModel.isStale.value == stale)
        }
    }

    @Test func reconnectNowRunsTheInjectedReconnectOrElseRefreshes() {
        let store = mock.store()
        var calls = 0
        let injected = ConnectionViewModel(store: store, clock: TestScheduler(), reconnect: { calls += 1 })
        injected.reconnectNow()
        #expect(calls == 1)
        #expect(store.refreshCount == 0)
        let fallback = ConnectionViewModel(store: store, clock: TestScheduler())
        fallback.reconnectNow()
        #expect(store.refreshCount == 1)
    }
}
