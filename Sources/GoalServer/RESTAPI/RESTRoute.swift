import NIOHTTP1

/// One route of the Goalbase-compatible HTTP API under `/api/v1/` (docs/HTTP.md), parsed from a request's method
/// and path. Value type; pure.
enum RESTRoute: Equatable {
    case listPlayers
    case createPlayer
    case deletePlayer(id: String)
    case listMatches
    case createMatch
    case updateMatch(id: String)
    case deleteMatch(id: String)
    case rankings
    /// A known path with a method it does not take: 405 with `Allow`.
    case methodNotAllowed(allow: String)
    /// No such path under `/api/v1/`: 404.
    case unknownPath

    /// The path prefix every route shares; a request outside it never reaches the HTTP API.
    static let prefix = "/api/v1/"

    /// Parses `path` (no query) for `method`. A trailing slash is ignored.
    init(method: HTTPMethod, path: String) {
        var rest = path.dropFirst(Self.prefix.count)
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        switch (parts[0], parts.count) {
        case ("players", 1):
            switch method {
            case .GET: self = .listPlayers
            case .POST: self = .createPlayer
            default: self = .methodNotAllowed(allow: "GET, POST")
            }
        case ("players", 2) where !parts[1].isEmpty:
            self = method == .DELETE ? .deletePlayer(id: parts[1]) : .methodNotAllowed(allow: "DELETE")
        case ("matches", 1):
            switch method {
            case .GET: self = .listMatches
            case .POST: self = .createMatch
            default: self = .methodNotAllowed(allow: "GET, POST")
            }
        case ("matches", 2) where !parts[1].isEmpty:
            switch method {
            case .PUT: self = .updateMatch(id: parts[1])
            case .DELETE: self = .deleteMatch(id: parts[1])
            default: self = .methodNotAllowed(allow: "PUT, DELETE")
            }
        case ("rankings", 1):
            self = method == .GET ? .rankings : .methodNotAllowed(allow: "GET")
        default:
            self = .unknownPath
        }
    }

    /// True for the routes that change the league (they need a body or an engine decision).
    var isWrite: Bool {
        switch self {
        case .createPlayer, .deletePlayer, .createMatch, .updateMatch, .deleteMatch: true
        case .listPlayers, .listMatches, .rankings, .methodNotAllowed, .unknownPath: false
        }
    }
}
