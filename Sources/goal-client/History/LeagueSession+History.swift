import Foundation
import GoalClient
import GoalModel
import GoalReactive
import GoalWire

extension LeagueSession {
    /// Asks the server for one page of history and waits for it (at most the session's retry window).
    /// - Throws: `CLIFailure.refused` for a refusal or a server without history; `cannotConnect` when no answer came.
    func history(_ request: HistoryRequest) async throws(CLIFailure) -> HistoryPageMessage {
        let window = retryWindow
        let result = await awaitOne(client.history(request))
        switch result {
        case .success(let page):
            return page
        case .failure(let error):
            switch error.kind {
            case .refused, .unsupported: throw .refused(TerminalText.escape(error.description))
            case .stopped: throw .cannotConnect("no history answer within \(Int(window)) s: \(error.description)")
            }
        }
    }
}
