import Foundation
import GoalModel

/// The league page of one league at `/l/<league>/` (and `?tv`): the page of `/` (web/index.html) with the league
/// named in it — `<meta name="goald-league">` (app.js reads it and sends it in the WebSocket hello), the title and
/// the heading. The slug's alphabet (`a`–`z`, `0`–`9`, `-`) needs no escaping in HTML. The page does not say whether
/// the league exists (it needs no token to load); the hello's `unknown_league` or `league_forbidden` does.
///
/// Stateless; any thread.
enum LeaguePage {
    /// The path prefix of a league's page.
    static let prefix = "/l/"

    /// What a path under `/l/` asks for.
    enum Request: Equatable {
        /// `/l/<league>/`: the page.
        case page(LeagueSlug)
        /// `/l/<league>` without the slash: a redirect to the page (so relative links resolve alike).
        case redirect(LeagueSlug)
        /// Anything else under `/l/` (a segment that cannot be a league's id, more segments): 404.
        case notFound
    }

    /// Reads `path` (no query), which starts with `prefix`.
    static func request(_ path: String) -> Request {
        let rest = path.dropFirst(prefix.count)
        let slash = rest.hasSuffix("/")
        let text = String(slash ? rest.dropLast() : rest)
        guard LeagueSlug.isValid(text) else { return .notFound }
        do {
            let slug = try LeagueSlug(validating: text)
            return slash ? .page(slug) : .redirect(slug)
        } catch {
            return .notFound  // isValid said it is one
        }
    }

    /// The page asset of `league`: index.html with the league in it, its own strong ETag.
    static func asset(_ league: LeagueSlug) -> WebAssets.Asset? {
        guard let index = WebAssets.byPath["/"] else { return nil }
        let text = String(decoding: index.body, as: UTF8.self)
        let named =
            text
            .replacingOccurrences(
                of: "<meta charset=\"utf-8\">",
                with: "<meta charset=\"utf-8\">\n<meta name=\"goald-league\" content=\"\(league)\">"
            )
            .replacingOccurrences(of: "<title>goald league</title>", with: "<title>\(league) · goald league</title>")
            .replacingOccurrences(of: "<h1>League</h1>", with: "<h1>League \(league)</h1>")
        // The page of `/` and the league make the body: their ETag with the league's id is as strong.
        return WebAssets.Asset(
            name: index.name,
            contentType: index.contentType,
            body: Array(named.utf8),
            etag: String(index.etag.dropLast()) + "-\(league)\""
        )
    }
}
