import GoalModel
import GoalWire

/// What goal-client says when a server refuses the league a session named (close 4404 `unknown_league`, 4405
/// `league_forbidden`, both terminal): which league, on which server, and what to do (`goal-client leagues` lists
/// the leagues the token may see). Pure functions; thread-safe.
enum LeagueRefusal {
    /// The failure for a terminal close, when it is a league refusal; nil for any other code.
    /// - Parameters:
    ///   - code: The close code.
    ///   - message: The server's explanation (its `error` message or close reason; may be empty).
    ///   - league: The league the hello named (nil: the default league).
    ///   - server: The servers, for the sentence.
    static func failure(code: CloseCode, message: String, league: LeagueSlug?, server: String) -> CLIFailure? {
        let name = "\"\((league ?? .default).rawValue)\""
        let detail = message.isEmpty ? "" : " (\(TerminalText.escape(message)))"
        switch code {
        case .unknownLeague:
            return .usage(
                "\(server) has no league \(name)\(detail); run goal-client leagues to list the leagues your token "
                    + "may see, then pass --league ID (or save one with goal-client login --league ID)"
            )
        case .leagueForbidden:
            return .unauthorized(
                "your token may not see league \(name) on \(server)\(detail); run goal-client leagues to list the "
                    + "leagues it may see, or ask an admin of \(name) for a token of that league"
            )
        default:
            return nil
        }
    }
}
