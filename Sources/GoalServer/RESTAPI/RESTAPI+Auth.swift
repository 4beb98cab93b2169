import GoalModel
import GoalStore
import GoalWire
import NIOCore
import NIOHTTP1
import NIOPosix

extension RESTAPI {
    /// The anonymous caller's changeset author.
    static let anonymousAuthor = "anonymous (http)"

    /// `Authorization: Bearer <token>` (same tokens and roles as the WebSocket API, per league), or the anonymous
    /// role (the default league's only) when there is no header and `http.anonymousRole` grants one. Never a token
    /// in the URL.
    /// - Returns: the caller, or the 401 to answer.
    func authenticate(_ head: HTTPRequestHead) -> EventLoopFuture<Result<Caller, RESTRefusal>> {
        guard let authorization = head.headers.first(name: "authorization") else {
            if let role = collaborators.context.anonymousRole {
                return eventLoop.makeSucceededFuture(
                    .success(Caller(author: Self.anonymousAuthor, anonymousRole: role))
                )
            }
            return eventLoop.makeSucceededFuture(
                .failure(RESTRefusal(unauthorized: "this API needs a token: Authorization: Bearer <token>"))
            )
        }
        guard authorization.lowercased().hasPrefix("bearer ") else {
            return eventLoop.makeSucceededFuture(
                .failure(RESTRefusal(unauthorized: "only Authorization: Bearer <token> is accepted"))
            )
        }
        let hash = TokenSecret.hash(presented: String(authorization.dropFirst("bearer ".count)))
        let tokens = collaborators.tokens
        return collaborators.threadPool.runIfActive(eventLoop: eventLoop) { try tokens.lookup(hash) }
            .map { token -> Result<Caller, RESTRefusal> in
                guard let token, !tokens.isRevoked(token) else {
                    return .failure(RESTRefusal(unauthorized: "unknown or revoked token"))
                }
                return .success(Caller(token: token))
            }
            .recover { _ in
                // The store could not be read for the look-up: the client may retry.
                .failure(RESTRefusal(response: .error(.serviceUnavailable, code: .storeUnavailable, "try again")))
            }
    }
}

/// The caller of one request, once authenticated: the author of its changesets and its role in each league.
/// Value type, `Sendable`.
struct RESTCaller: Sendable {
    let author: String
    /// The presented token; nil for the anonymous caller.
    let token: StoredToken?
    /// The anonymous caller's role in the default league (`http.anonymousRole`); it has none in any other league.
    let anonymousRole: Role?

    init(token: StoredToken) {
        author = token.name
        self.token = token
        anonymousRole = nil
    }

    init(author: String, anonymousRole: Role) {
        self.author = author
        token = nil
        self.anonymousRole = anonymousRole
    }

    /// The caller's role in `league`, or nil when it may not use it: a token's grant there (every league for a token
    /// without grants), the anonymous role in the default league only.
    func role(in league: LeagueSlug) -> Role? {
        if let token { return token.role(in: league) }
        return league.isDefault ? anonymousRole : nil
    }

    /// An admin of every league (`StoredToken.isOperator`): may create, rename and delete leagues.
    var isOperator: Bool { token?.isOperator ?? false }

    /// True without a token (the anonymous role).
    var isAnonymous: Bool { token == nil }
}

/// A request refused before it reached a handler (401, 503). Value type.
struct RESTRefusal: Error {
    let response: RESTResponse

    init(response: RESTResponse) { self.response = response }

    init(unauthorized message: String) {
        var response = RESTResponse.error(.unauthorized, code: .unauthenticated, message)
        response.headers.append(("www-authenticate", "Bearer"))
        self.response = response
    }
}
