import GoalModel
import GoalStore
import GoalWire
import Logging
import NIOCore
import NIOPosix

/// `history` requests: read on the thread pool (never on the event loop or the engine's queue), one outstanding
/// per session (a second one is refused `busy`, which bounds what a session can queue there). Answers are written
/// at once, also between catch-up messages: they are not about the stream's order, and holding them while a session
/// catches up would let refusals pile up unbounded; written at once they count toward the session's queue bound.
/// Every role may read history.
extension SessionHandler {
    func receiveHistory(_ request: HistoryRequest) {
        guard let context else { return }
        if let refusal = HistoryService.refusal(of: request) {
            answerHistory(refusal)
            return
        }
        guard !historyOutstanding else {
            answerHistory(
                HistoryService.refused(request, .busy, "wait for the answer to your previous history request")
            )
            return
        }
        historyOutstanding = true
        let storage = core.storage
        core.threadPool.runIfActive(eventLoop: context.eventLoop) { () throws -> HistoryAnswer in
            try HistoryService.answer(request, from: storage)
        }.assumeIsolated().whenComplete { result in
            self.historyOutstanding = false
            switch result {
            case .success(let answer):
                self.answerHistory(answer)
            case .failure(let error):
                self.logger.error("history read failed", metadata: ["goal.error": "\(error)"])
                self.fail(.internalError, "the server could not read its log; reconnect")
            }
        }
    }

    private func answerHistory(_ answer: HistoryAnswer) {
        guard !isClosing else { return }
        sendNow(.history(answer))
    }
}
