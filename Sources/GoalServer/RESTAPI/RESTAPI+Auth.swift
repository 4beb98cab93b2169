import GoalModel
import GoalStore
import GoalWire
import NIOCore
import NIOHTTP1
import NIOPosix

extension RESTAPI {
    /// The anonymous caller's changeset author.
    static let anonymousAuthor = "anonymous (http)"

    /// `Authorization: Bearer <token>` (same tokens and roles as the WebSocket API), or the anonymous role when
    /// there is no header and `http.anonymousRole` grants one. Never a token in the URL.
    /// - Returns: the caller, or the 401 to answer.
    func authenticate(_ head: HTTPRequestHead) -> EventLoopFuture<Result<Caller, RESTRefusal>> {
        guard let authorization = head.headers.first(name: "authorization") else {
            if let role = collaborators.context.anonymousRole {
                return eventLoop.makeSucceededFuture(.success(Caller(author: Self.anonymousAuthor, role: role)))
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
                return .success(Caller(author: token.name, role: token.role))
            }
            .recover { _ in
                // The store could not be read for the look-up: the client may retry.
                .failure(RESTRefusal(response: .error(.serviceUnavailable, code: .storeUnavailable, "try again")))
            }
    }
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
