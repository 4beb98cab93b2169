import NIOHTTP1

/// One route of the HTTP API under `/api/v1/` (docs/HTTP.md), parsed from a request's method and path: Goalbase's
/// routes (the default league's), the league directory (`leagues`, `leagues/{id}`) and Goalbase's routes again
/// under `leagues/{league}/` for one league (`RESTTarget` carries which). Value type; pure.
enum RESTRoute: Equatable {
    case openAPIDocument
    case listPlayers
    case createPlayer
    case deletePlayer(id: String)
    case listMatches
    case createMatch
    case updateMatch(id: String)
    case deleteMatch(id: String)
    case rankings
    case listLeagues
    case createLeague
    case renameLeague(id: String)
    case deleteLeague(id: String)
    /// A known path with a method it does not take: 405 with `Allow`.
    case methodNotAllowed(allow: String)
    /// No such path under `/api/v1/`: 404.
    case unknownPath

    /// The path prefix every route shares; a request outside it never reaches the HTTP API.
    static let prefix = "/api/v1/"

    /// The path prefix of one league's routes below `prefix`: `leagues/{league}/` then a route of `leagueRoutes`.
    static let leaguePrefix = "leagues/{league}/"

    /// The routes of one league (Goalbase's), served for the default league at `/api/v1/<path>` and for any league
    /// at `/api/v1/leagues/{league}/<path>`; `{id}` is any one non-empty segment.
    static let leagueRoutes: [(path: String, methods: [HTTPMethod])] = [
        ("players", [.GET, .HEAD, .POST]),
        ("players/{id}", [.DELETE]),
        ("matches", [.GET, .HEAD, .POST]),
        ("matches/{id}", [.PUT, .DELETE]),
        ("rankings", [.GET, .HEAD]),
    ]

    /// The router's table: every path (below `prefix`; a `{…}` segment is any one non-empty segment) and the methods
    /// it takes, in `Allow`'s order. `init` finds the path here; docs/openapi.yaml must list exactly these
    /// (OpenAPIDocumentTests).
    static let table: [(path: String, methods: [HTTPMethod])] =
        [("openapi.json", [.GET, .HEAD])] + leagueRoutes
        + [("leagues", [.GET, .HEAD, .POST]), ("leagues/{id}", [.PATCH, .DELETE])]
        + leagueRoutes.map { (leaguePrefix + $0.path, $0.methods) }

    /// Parses `path` (no query) for `method`. A trailing slash is ignored. HEAD is routed as GET: the handler
    /// sends GET's status and headers without the body (RFC 9110 §9.3.2).
    init(method requested: HTTPMethod, path: String) {
        self = RESTTarget(method: requested, path: path).route
    }

    /// Parses as `init(method:path:)` does, also returning the `{league}` segment of a league's route (nil for the
    /// other routes).
    static func parse(method requested: HTTPMethod, path: String) -> (route: RESTRoute, league: String?) {
        let method = requested == .HEAD ? .GET : requested
        var rest = path.dropFirst(prefix.count)
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        var parts = rest.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard let entry = table.first(where: { matches($0.path, parts) }) else { return (.unknownPath, nil) }
        var template = entry.path
        var league: String?
        if template.hasPrefix(leaguePrefix) {
            league = parts[1]
            parts.removeFirst(2)
            template.removeFirst(leaguePrefix.count)
        }
        let id = parts.count == 2 ? parts[1] : ""
        let route: RESTRoute
        switch (template, method) {
        case ("openapi.json", .GET): route = .openAPIDocument
        case ("players", .GET): route = .listPlayers
        case ("players", .POST): route = .createPlayer
        case ("players/{id}", .DELETE): route = .deletePlayer(id: id)
        case ("matches", .GET): route = .listMatches
        case ("matches", .POST): route = .createMatch
        case ("matches/{id}", .PUT): route = .updateMatch(id: id)
        case ("matches/{id}", .DELETE): route = .deleteMatch(id: id)
        case ("rankings", .GET): route = .rankings
        case ("leagues", .GET): route = .listLeagues
        case ("leagues", .POST): route = .createLeague
        case ("leagues/{id}", .PATCH): route = .renameLeague(id: id)
        case ("leagues/{id}", .DELETE): route = .deleteLeague(id: id)
        default: route = .methodNotAllowed(allow: entry.methods.map(\.rawValue).joined(separator: ", "))
        }
        return (route, league)
    }

    private static func matches(_ template: String, _ parts: [String]) -> Bool {
        let pattern = template.split(separator: "/").map(String.init)
        guard pattern.count == parts.count else { return false }
        return zip(pattern, parts).allSatisfy { expected, part in
            expected.hasPrefix("{") ? !part.isEmpty : expected == part
        }
    }

    /// True for the writes that read a body (creates, the match PUT, the league routes' POST and PATCH): their
    /// `Content-Type` must name JSON or a form.
    var takesBody: Bool {
        switch self {
        case .createPlayer, .createMatch, .updateMatch, .createLeague, .renameLeague: true
        default: false
        }
    }

    /// True for the routes that change a league (they need a body or an engine decision).
    var isWrite: Bool {
        switch self {
        case .createPlayer, .deletePlayer, .createMatch, .updateMatch, .deleteMatch: true
        case .openAPIDocument, .listPlayers, .listMatches, .rankings, .listLeagues, .createLeague, .renameLeague,
            .deleteLeague, .methodNotAllowed, .unknownPath:
            false
        }
    }

    /// True for the league directory's routes (`/api/v1/leagues`, `/api/v1/leagues/{id}`).
    var isLeagueDirectory: Bool {
        switch self {
        case .listLeagues, .createLeague, .renameLeague, .deleteLeague: true
        default: false
        }
    }
}

/// A request's route and the league it addresses: the `{league}` segment of `/api/v1/leagues/{league}/…` as sent
/// (not yet checked as a slug), or nil for Goalbase's paths (`/api/v1/players` …: the default league) and the routes
/// that address no one league. Value type; pure.
struct RESTTarget: Equatable {
    let route: RESTRoute
    let league: String?

    init(method: HTTPMethod, path: String) {
        (route, league) = RESTRoute.parse(method: method, path: path)
    }

    init(route: RESTRoute, league: String?) {
        self.route = route
        self.league = league
    }
}

/// The router as the drift test sees it (docs/openapi.yaml against the code). Stateless.
@_spi(Testing)
public enum RESTRouteTable {
    /// Every path template (with `/api/v1/`, `{league}` and `{id}`) and the methods the router answers there.
    public static var routes: [(path: String, methods: [String])] {
        RESTRoute.table.map { (RESTRoute.prefix + $0.path, $0.methods.map(\.rawValue)) }
    }

    /// What the router does with `method` on a concrete `path`: `"handled"`, `"405 <Allow>"` or `"404"`.
    public static func resolve(method: String, path: String) -> String {
        switch RESTRoute(method: HTTPMethod(rawValue: method), path: path) {
        case .methodNotAllowed(let allow): "405 \(allow)"
        case .unknownPath: "404"
        default: "handled"
        }
    }

    /// The JSON form of docs/openapi.yaml that goald serves at `/api/v1/openapi.json`.
    public static var openAPIJSON: String { OpenAPIDocument.json }
}
