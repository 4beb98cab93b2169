import Foundation
import GoalModel
import GoalStore
import GoalWire
import NIOCore
import NIOHTTP1
import NIOPosix

/// The Goalbase-compatible HTTP API under `/api/v1/` (docs/HTTP.md): authenticates a complete request, reads
/// from the durable league or hands a write to the engine like a WebSocket mutation, and answers a `RESTResponse`.
///
/// Threading: called on the connection's event loop; the future completes on that loop. Token look-ups run on the
/// daemon's thread pool; the engine is never waited on. Lifetime: one per request (a cheap value).
struct RESTAPI {
    /// How long a write waits for the engine's answer before 503 (the engine drops mutations while stopping).
    static let answerTimeout: TimeAmount = .seconds(30)

    /// What the HTTP API uses of the rest of the server: the engine it reads the durable league from and hands
    /// writes to, the tokens (looked up on `threadPool`), what every request shares (`RESTContext`) and the
    /// `overloaded` answer's retry hint. Built once by `DaemonComposition`.
    ///
    /// Threading: every member is `Sendable`. Lifetime: the daemon's.
    struct Collaborators: Sendable {
        let engine: Engine
        let tokens: TokenDirectory
        let threadPool: NIOThreadPool
        let context: RESTContext
        /// `limits.overloadedRetryMilliseconds`: the `Retry-After` of a write the engine's inbox refused.
        let overloadedRetryMilliseconds: Int
    }

    let collaborators: Collaborators
    let eventLoop: any EventLoop

    /// The caller, once authenticated: the author of its changesets and its role.
    struct Caller: Sendable {
        let author: String
        let role: Role
    }

    /// Answers one complete request (`body` is empty for a GET).
    func respond(to head: HTTPRequestHead, path: String, body: [UInt8]) -> EventLoopFuture<RESTResponse> {
        let route = RESTRoute(method: head.method, path: path)
        switch route {
        case .unknownPath:
            return answer(
                .error(.notFound, code: .notFound, "no such route: \(head.method) \(path) (see docs/HTTP.md)")
            )
        case .methodNotAllowed(let allow):
            var response = RESTResponse.error(
                .methodNotAllowed,
                code: .methodNotAllowed,
                "\(path) does not take \(head.method); it takes \(allow)"
            )
            response.headers.append(("allow", allow))
            return answer(response)
        case .openAPIDocument:
            // A public description of the API: no token needed (docs/HTTP.md).
            return answer(RESTResponse(status: .ok, body: Array(OpenAPIDocument.json.utf8)))
        default:
            break
        }
        let api = self
        return authenticate(head).flatMap { outcome in
            switch outcome {
            case .failure(let refusal): return api.answer(refusal.response)
            case .success(let caller): return api.dispatch(route, head: head, body: body, caller: caller)
            }
        }
    }

    private func dispatch(
        _ route: RESTRoute,
        head: HTTPRequestHead,
        body: [UInt8],
        caller: Caller
    ) -> EventLoopFuture<RESTResponse> {
        let state = collaborators.engine.durableView.state
        let ifNoneMatch = head.headers.first(name: "if-none-match")
        switch route {
        case .listPlayers:
            return answer(list(state, ifNoneMatch) { RESTEncoding.players($0.playersByName()) })
        case .listMatches:
            return answer(list(state, ifNoneMatch) { RESTEncoding.matches($0.matchesNewestFirst(), in: $0) })
        case .rankings:
            return answer(list(state, ifNoneMatch) { RESTEncoding.rankings($0) })
        default:
            return RESTWrite(api: self, head: head, caller: caller, state: state).perform(route, body: body)
        }
    }

    /// A list with the league's revision as its ETag, or 304 when `If-None-Match` names that revision (or `*`).
    private func list(
        _ state: LeagueState,
        _ ifNoneMatch: String?,
        _ encode: (LeagueState) -> [UInt8]
    ) -> RESTResponse {
        if let ifNoneMatch,
            ifNoneMatch.trimmingCharacters(in: .whitespaces) == "*"
                || RESTETag.revisions(ifNoneMatch).contains(state.revision)
        {
            return RESTResponse(status: .notModified, headers: [("etag", RESTETag.quoted(state.revision))], body: [])
        }
        return .entity(.ok, encode(state), revision: state.revision)
    }

    func answer(_ response: RESTResponse) -> EventLoopFuture<RESTResponse> {
        eventLoop.makeSucceededFuture(response)
    }
}
