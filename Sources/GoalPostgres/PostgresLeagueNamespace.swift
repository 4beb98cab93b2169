import Foundation
import GoalModel

/// Where one league's tables live in a goald database, and the channels its nodes notify each other on.
///
/// The default league (the home store's) keeps the tables of the connection's default `search_path` (`public`, as
/// every goald before leagues made them) and the channels `goald_head` and `goald_presence`, so an existing database
/// is the default league, its epoch, revisions and digests intact, and nodes of the previous release still hear it.
/// Every other league lives in a schema of its own, `goald_league_<slug>` with `-` written `_` (slugs are `[a-z0-9-]`,
/// so the mapping is injective), with the same tables and functions and its own league row, so commits of different
/// leagues never wait for each other's row lock. Its connections start with `search_path` set to that schema, so the
/// SQL is the default league's, unqualified. Its channels are `goald_head_<slug>` and `goald_presence_<slug>`
/// (at most 55 bytes, under NOTIFY's 63), so a node hears only its own leagues' commits and presence.
///
/// Value type, `Sendable`.
struct PostgresLeagueNamespace: Sendable, Hashable {
    /// The home store's: the default league.
    static let home = PostgresLeagueNamespace(league: nil)

    /// The league, nil for the home store (the default league).
    let league: LeagueSlug?

    /// A league's namespace; the default league's is `home`.
    static func of(_ league: LeagueSlug) -> PostgresLeagueNamespace {
        league.isDefault ? .home : PostgresLeagueNamespace(league: league)
    }

    /// The slug as an identifier part: `-` becomes `_`.
    private var suffix: String? { league.map { $0.rawValue.replacingOccurrences(of: "-", with: "_") } }

    /// The league's schema; nil for the home store (the connection's default `search_path`).
    var schema: String? { suffix.map { "goald_league_\($0)" } }

    /// The channel a committing transaction notifies with its new version (delivered at commit).
    var headChannel: String { suffix.map { "\(PostgresSchema.headChannel)_\($0)" } ?? PostgresSchema.headChannel }

    /// The channel the league's nodes tell each other about presence on.
    var presenceChannel: String {
        suffix.map { "\(PostgresSchema.presenceChannel)_\($0)" } ?? PostgresSchema.presenceChannel
    }

    /// A migration statement for this namespace: the home store's as written; a league's with `goald_append`'s
    /// notification channel (`'goald_head'`, the only channel a migration names) replaced by the league's.
    func statement(_ sql: String) -> String {
        guard league != nil else { return sql }
        return sql.replacingOccurrences(of: "'\(PostgresSchema.headChannel)'", with: "'\(headChannel)'")
    }
}
