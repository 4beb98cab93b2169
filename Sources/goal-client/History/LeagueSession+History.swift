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
            case .refused, .unsupported: throw .refused(RefusalText.naming(error.description, in: client.replica.value))
            case .stopped: throw .cannotConnect("no history answer within \(Int(window)) s: \(error.description)")
            }
        }
    }

    /// The creation times of `matches` as the UI's match list learns them (`MatchDates`): one history request at a
    /// time for exactly each match's creating revision. A match whose creation the log no longer holds (or that the
    /// server refuses) stays without a date; so does every match once the client is stopped (offline, or no answer
    /// within the retry window) or when the server offers no history.
    /// - Parameter matches: The matches to date, in the order they are shown.
    /// - Returns: The dates learned.
    func matchDates(for matches: [Match]) async -> MatchDates {
        var dates = MatchDates()
        while let request = dates.nextRequest(for: matches) {
            switch await awaitOne(client.history(request)) {
            case .success(let page):
                dates.answered(page)
            case .failure(let error):
                dates.failed(error)
                if case .stopped = error.kind { return dates }  // it would be asked again, and fail again
            }
        }
        return dates
    }
}
