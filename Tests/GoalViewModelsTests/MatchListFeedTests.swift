@_spi(Testing) import GoalClient
import GoalModel
import GoalReactive
import GoalTestSlots
import GoalTestSupport
import Testing

@testable import GoalViewModels

/// The match list end to end through its feed's patched path (`ListRowSource.patched`): another client's commits,
/// this client's held creations and goals, their release; every `RowChanges` the view model sends replays the rows
/// it showed into the rows it shows, and its cursor is where the diff-based transitions put it.
@MainActor
@Suite("MatchesViewModel: patched changes replay exactly, the cursor follows as before", .slotted)
struct MatchListFeedTests {
    @Test("random commits by another client, this client's pending creations and goals", arguments: [1, 2] as [UInt64])
    func randomSteps(seed: UInt64) {
        let mock = MockLeague()
        let viewer = mock.store("viewer")
        let editor = mock.store("editor")
        viewer.holdsMutations = true
        let viewModel = MatchesViewModel(store: viewer)
        var shown: [MatchRow] = []
        var reference = ReferenceCursor<MatchID>()
        var sent = 0
        var failures = 0
        var random = SplitMix(state: seed)
        viewModel.contentChanges.observeValues { changes in
            let rows = Array(viewModel.rows)
            sent += 1
            if changes.applied(to: shown, new: rows) != rows { failures += 1 }
            reference.follow(from: shown.map(\.id), to: rows.map(\.id), removedHere: { _ in false })
            shown = rows
        }
        viewModel.active.value = true
        var players = [mock.a, mock.b, mock.c, mock.d]
        for step in 0..<400 {
            let matches = viewer.replica.value.matchesNewestFirst().map(\.id)
            switch random.below(100) {
            case 0..<20:
                let picks = random.distinct(4, below: players.count).map { players[$0] }
                submit(
                    editor,
                    .createMatch(
                        id: MatchID(),
                        homePlayers: [picks[0], picks[1]],
                        awayPlayers: [picks[2], picks[3]],
                        homeGoals: 0,
                        awayGoals: 0
                    )
                )
            case 20..<35 where !matches.isEmpty:
                let match = matches[random.below(matches.count)]
                submit(editor, .adjustGoals(id: match, side: random.below(2) == 0 ? .home : .away, delta: 1))
            case 35..<42 where !matches.isEmpty:
                submit(editor, .deleteMatch(id: matches[random.below(matches.count)]))
            case 42..<47:
                submit(editor, .renamePlayer(id: players[random.below(players.count)], name: "P\(step)"))
            case 47..<50:
                let id = PlayerID()
                submit(editor, .createPlayer(id: id, name: "New \(step)"))
                players.append(id)
            case 50..<62:
                let picks = random.distinct(4, below: players.count).map { players[$0] }
                submit(
                    viewer,
                    .createMatch(
                        id: MatchID(),
                        homePlayers: [picks[0], picks[1]],
                        awayPlayers: [picks[2], picks[3]],
                        homeGoals: 1,
                        awayGoals: 0
                    )
                )
            case 62..<75 where !matches.isEmpty:
                let match = matches[random.below(matches.count)]
                viewModel.adjustGoalsAction.apply(GoalAdjustment(match: match, side: .home, delta: 1)).start()
            case 75..<85:
                viewer.releaseHeldMutations()
            case 85..<93 where viewModel.numberOfMatches(inSection: 0) > 0:
                viewModel.moveCursor(by: random.below(7) - 3)
                reference = ReferenceCursor(id: viewModel.cursor.value.id, row: viewModel.cursor.value.row)
            default:
                let rows = viewModel.rows
                guard !rows.isEmpty else { continue }
                viewModel.select(rows[random.below(rows.count)].id)
                reference = ReferenceCursor(id: viewModel.cursor.value.id, row: viewModel.cursor.value.row)
            }
            #expect(failures == 0, "step \(step): the changes sent replay to the rows shown")
            #expect(Array(viewModel.rows) == shown, "step \(step): every change of the rows was sent")
            #expect(
                reference.matches(viewModel.cursor.value),
                "step \(step): \(viewModel.cursor.value) vs \(reference)"
            )
            if failures > 0 || !reference.matches(viewModel.cursor.value) { return }
        }
        viewer.releaseHeldMutations()
        #expect(viewer.pendingMutations.value.isEmpty)
        #expect(sent > 200)
        #expect(viewModel.numberOfMatches(inSection: 0) == viewer.replica.value.matches.count)
    }

    private func submit(_ store: InMemoryLeagueStore, _ action: MutationAction) {
        store.submit(action, base: store.replica.value.revision).start()
    }
}
