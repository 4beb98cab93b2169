@_spi(Testing) import GoalClient
import GoalModel
import GoalReactive
import GoalTestSlots
import GoalTestSupport
import GoalWire
import Testing

@testable import GoalViewModels

@MainActor
@Suite("ConnectionViewModel: status, server, revision, round-trip time", .slotted)
struct ConnectionViewModelTests {
    let mock = MockLeague()

    @Test func showsServerStatusRevisionRoundTripAndPending() {
        let store = mock.store()
        let viewModel = ConnectionViewModel(store: store)
        let statuses = Recorder(viewModel.statusText)
        let alerts = Recorder(viewModel.alertMessages)
        #expect(viewModel.server == "in-memory")
        #expect(viewModel.revisionText.value == "r6")
        #expect(viewModel.roundTripText.value == "–")
        store.setStatus(.live(roundTrip: 0.0234))
        #expect(viewModel.roundTripText.value == "23 ms")
        store.setStatus(.reconnecting(attempt: 2, delay: 1.25))
        store.setStatus(.connecting(attempt: 2))
        store.setStatus(.syncing)
        #expect(
            statuses.values == [
                "live", "live (23 ms)", "reconnecting in 1.3 s (retry 2)", "connecting (retry 2)", "syncing",
            ]
        )
        store.holdsMutations = true
        _ = store.submit(.createPlayer(id: PlayerID(), name: "Eve"), base: 6)
        #expect(viewModel.pendingCount.value == 1)
        store.releaseHeldMutations()
        #expect(viewModel.pendingCount.value == 0)
        #expect(viewModel.revisionText.value == "r7")
        #expect(alerts.values == [])
    }

    @Test func aTerminalStopRaisesOneAlertWithTheReasonButARequestedStopDoesNot() {
        let store = mock.store()
        let viewModel = ConnectionViewModel(store: store)
        let alerts = Recorder(viewModel.alertMessages)
        store.setStatus(.stopped(.requested))
        #expect(alerts.values == [])
        store.setStatus(.stopped(.terminal(code: .tokenRevoked, message: "the token was revoked")))
        #expect(alerts.values == ["Disconnected from in-memory: the token was revoked (token_revoked (4403))"])
        #expect(viewModel.statusText.value == "stopped: the token was revoked (token_revoked (4403))")
    }
}
