import Foundation
import GoalModel
public import GoalReactive
public import GoalWire

/// Entity history (docs/PROTOCOL.md §4 `history`). Runs on the scheduler only, like every state change.
extension GoalClient {
    /// Asks the server for one page of an entity's history, newest first.
    ///
    /// The request waits for an authenticated session and is sent again on the next connection if the current one
    /// drops before the answer. Requests go out one at a time, in order.
    /// - Parameter request: The entity, `before` (a previous page's `nextBefore`) and `limit` (1…100, default 20).
    /// - Returns: A producer of the page; it fails with `HistoryError` (refused, unsupported by the server, stopped).
    ///   Each start sends its own request. The answer arrives on the client's scheduler (observe it on the main
    ///   queue for UI work).
    public func history(_ request: HistoryRequest) -> SignalProducer<HistoryPageMessage, HistoryError> {
        SignalProducer { observer, _ in
            self.onScheduler { client in
                if case .stopped = client.driver.machine.reconnect.state {
                    observer.send(error: HistoryError(.stopped, "not connected: the client is stopped"))
                    return
                }
                client.state.history.append(HistoryQueue.Waiting(request: request, observer: observer))
                client.sendNextHistoryRequest()
            }
        }
    }

    /// The welcome said whether the server answers `history`: send what waits, or fail it all.
    func historyWelcomed(_ welcome: ServerMessage.Welcome) {
        state.history.serverOffersHistory = welcome.history
        guard welcome.history else {
            for waiting in state.history.removeAll() {
                waiting.observer.send(
                    error: HistoryError(.unsupported, "the server does not offer history (an older goald)")
                )
            }
            return
        }
        sendNextHistoryRequest()
    }

    func historyAnswered(_ answer: HistoryAnswer) {
        guard let waiting = state.history.answered() else { return }
        switch answer.result {
        case .page(let page):
            waiting.observer.send(value: page)
            waiting.observer.sendCompleted()
        case .refused(let code, let message):
            waiting.observer.send(error: HistoryError(.refused(code), message))
        }
        sendNextHistoryRequest()
    }

    /// The client stopped: every waiting request fails.
    func failHistoryRequests(_ reason: StopReason) {
        for waiting in state.history.removeAll() {
            waiting.observer.send(error: HistoryError(.stopped, "not connected: \(reason)"))
        }
    }

    private func sendNextHistoryRequest() {
        guard let connection = driver.connection, let request = state.history.next() else { return }
        connection.send(ClientMessage.history(request).encoded())
    }
}
