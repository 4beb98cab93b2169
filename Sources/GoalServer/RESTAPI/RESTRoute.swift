import NIOHTTP1

/// One route of the Goalbase-compatible HTTP API under `/api/v1/` (docs/HTTP.md), parsed from a request's method
/// and path. Value type; pure.
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
    /// A known path with a method it does not take: 405 with `Allow`.
    case methodNotAllowed(allow: String)
    /// No such path under `/api/v1/`: 404.
    case unknownPath

    /// The path prefix every route shares; a request outside it never reaches the HTTP API.
    static let prefix = "/api/v1/"

    /// The router's table: every path (below `prefix`; `{id}` is any one non-empty segment) and the methods it
    /// takes, in `Allow`'s order. `init` finds the path here; docs/openapi.yaml must list exactly these
    /// (OpenAPIDocumentTests).
    static let table: [(path: String, methods: [HTTPMethod])] = [
        ("openapi.json", [.GET, .HEAD]),
        ("players", [.GET, .HEAD, .POST]),
        ("players/{id}", [.DELETE]),
        ("matches", [.GET, .HEAD, .POST]),
        ("matches/{id}", [.PUT, .DELETE]),
        ("rankings", [.GET, .HEAD]),
    ]

    /// Parses `path` (no query) for `method`. A trailing slash is ignored. HEAD is routed as GET: the handler
    /// sends GET's status and headers without the body (RFC 9110 §9.3.2).
    init(method requested: HTTPMethod, path: String) {
        let method = requested == .HEAD ? .GET : requested
        var rest = path.dropFirst(Self.prefix.count)
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard let entry = Self.table.first(where: { Self.matches($0.path, parts) }) else {
            self = .unknownPath
            return
        }
        let id = parts.count == 2 ? parts[1] : ""
        switch (entry.path, method) {
        case ("openapi.json", .GET): self = .openAPIDocument
        case ("players", .GET): self = .listPlayers
        case ("players", .POST): self = .createPlayer
        case ("players/{id}", .DELETE): self = .deletePlayer(id: id)
        case ("matches", .GET): self = .listMatches
        case ("matches", .POST): self = .createMatch
        case ("matches/{id}", .PUT): self = .updateMatch(id: id)
        case ("matches/{id}", .DELETE): self = .deleteMatch(id: id)
        case ("rankings", .GET): self = .rankings
        default: self = .methodNotAllowed(allow: entry.methods.map(\.rawValue).joined(separator: ", "))
        }
    }

    private static func matches(_ template: String, _ parts: [String]) -> Bool {
        let pattern = template.split(separator: "/").map(String.init)
        guard pattern.count == parts.count else { return false }
        return zip(pattern, parts).allSatisfy { expected, part in
            expected == "{id}" ? !part.isEmpty : expected == part
        }
    }

    /// True for the writes that read a body (creates and the match PUT): their `Content-Type` must name JSON or a
    /// form.
    var takesBody: Bool {
        switch self {
        case .createPlayer, .createMatch, .updateMatch: true
        default: false
        }
    }

    /// True for the routes that change the league (they need a body or an engine decision).
    var isWrite: Bool {
        switch self {
        case .createPlayer, .deletePlayer, .createMatch, .updateMatch, .deleteMatch: true
        case .openAPIDocument, .listPlayers, .listMatches, .rankings, .methodNotAllowed, .unknownPath: false
        }
    }
}

/// The router as the drift test sees it (docs/openapi.yaml against the code). Stateless.
@_spi(Testing)
public enum RESTRouteTable {
    /// Every path template (with `/api/v1/` and `{id}`) and the methods the router answers there.
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
