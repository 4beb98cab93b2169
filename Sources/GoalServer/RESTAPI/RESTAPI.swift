import Foundation
import GoalModel
import GoalStore
import GoalWire
import NIOCore
import NIOHTTP1
import NIOPosix

/// The Goalbase-compatible HTTP API under `/api/v1/` (docs/HTTP.md): authenticates a complete request, finds the
/// league it addresses (`/api/v1/leagues/{league}/…`, or the default league for Goalbase's paths), checks the
/// caller's role there, reads from that league's durable state or hands a write to its engine like a WebSocket
/// mutation, and answers a `RESTResponse`. The league directory (`/api/v1/leagues`) is `RESTLeagueDirectory`.
///
/// Threading: called on the connection's event loop; the future completes on that loop. Token look-ups and league
/// loads run on the daemon's thread pool; the engine is never waited on. Lifetime: one per request (a cheap value).
struct RESTAPI {
    /// How long a write waits for the engine's answer before 503 (the engine drops mutations while stopping).
    static let answerTimeout: TimeAmount = .seconds(30)

    /// What the HTTP API uses of the rest of the server: the leagues (each one's engine it reads the durable league
    /// from and hands writes to; the catalog), the tokens (looked up on `threadPool`), what every request shares
    /// (`RESTContext`), the `overloaded` answer's retry hint and the clock that dates a new league. Built once by
    /// `DaemonComposition`.
    ///
    /// Threading: every member is `Sendable`. Lifetime: the daemon's.
    struct Collaborators: Sendable {
        let leagues: LeagueHost
        let tokens: TokenDirectory
        let threadPool: NIOThreadPool
        let context: RESTContext
        /// `limits.overloadedRetryMilliseconds`: the `Retry-After` of a write the engine's inbox refused.
        let overloadedRetryMilliseconds: Int
        /// The wall clock (`DaemonParts.clock`): a created league's `created`.
        let clock: @Sendable () -> Timestamp
    }

    let collaborators: Collaborators
    let eventLoop: any EventLoop

    typealias Caller = RESTCaller

    /// Answers one complete request (`body` is empty for a GET).
    func respond(to head: HTTPRequestHead, path: String, body: [UInt8]) -> EventLoopFuture<RESTResponse> {
        let target = RESTTarget(method: head.method, path: path)
        switch target.route {
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
            case .failure(let refusal):
                return api.answer(refusal.response)
            case .success(let caller) where target.route.isLeagueDirectory:
                return RESTLeagueDirectory(api: api, head: head, caller: caller).perform(target.route, body: body)
            case .success(let caller):
                return api.inLeague(target, head: head, body: body, caller: caller)
            }
        }
    }

    /// Serves a league's route in the league `target` names (the default league for Goalbase's paths): 404 for a
    /// league that cannot exist or does not, 403 (401 for the anonymous caller) for one the caller has no role in,
    /// whether or not it exists. The league is held (`LeagueHost.acquire`) until the response is complete.
    private func inLeague(
        _ target: RESTTarget,
        head: HTTPRequestHead,
        body: [UInt8],
        caller: Caller
    ) -> EventLoopFuture<RESTResponse> {
        let slug: LeagueSlug
        do {
            slug =
                try target.league.map { text throws(LeagueSlugError) in try LeagueSlug(validating: text) } ?? .default
        } catch {
            return answer(.error(.notFound, code: .unknownLeague, "no league \(error.text): \(error)"))
        }
        guard let role = caller.role(in: slug) else { return answer(Self.notAllowed(caller, in: slug)) }
        let leagues = collaborators.leagues
        if slug.isDefault {
            return dispatch(target.route, head: head, body: body, caller: caller, role: role, in: leagues.defaultLeague)
        }
        let api = self
        // Only the load's failure is a 503: the catalog or the league's store could not be read (or the pool
        // stopped), and the client may retry. The request itself answers for itself.
        return collaborators.threadPool.runIfActive(eventLoop: eventLoop) { try leagues.acquire(slug) }
            .map { Result<LeagueRuntime?, any Error>.success($0) }
            .recover { .failure($0) }
            .flatMap { loaded -> EventLoopFuture<RESTResponse> in
                switch loaded {
                case .failure:
                    return api.answer(
                        .error(
                            .serviceUnavailable,
                            code: .storeUnavailable,
                            "league \(slug) cannot be read now; try again"
                        )
                    )
                case .success(nil):
                    return api.answer(.error(.notFound, code: .unknownLeague, "there is no league \(slug)"))
                case .success(let runtime?):
                    return api.dispatch(target.route, head: head, body: body, caller: caller, role: role, in: runtime)
                        .always { _ in leagues.release(runtime) }
                }
            }
    }

    /// 403 `league_forbidden` for a token without a role in `league`; 401 for the anonymous caller, whose role is
    /// the default league's only.
    static func notAllowed(_ caller: Caller, in league: LeagueSlug) -> RESTResponse {
        guard caller.isAnonymous else {
            return .error(.forbidden, code: .leagueForbidden, "this token is not allowed in league \(league)")
        }
        return RESTRefusal(unauthorized: "league \(league) needs a token: Authorization: Bearer <token>").response
    }

    private func dispatch(
        _ route: RESTRoute,
        head: HTTPRequestHead,
        body: [UInt8],
        caller: Caller,
        role: Role,
        in league: LeagueRuntime
    ) -> EventLoopFuture<RESTResponse> {
        let state = league.engine.durableView.state
        let ifNoneMatch = head.headers.first(name: "if-none-match")
        switch route {
        case .listPlayers:
            return answer(list(state, ifNoneMatch) { RESTEncoding.players($0.playersByName()) })
        case .listMatches:
            return answer(list(state, ifNoneMatch) { RESTEncoding.matches($0.matchesNewestFirst(), in: $0) })
        case .rankings:
            return answer(list(state, ifNoneMatch) { RESTEncoding.rankings($0) })
        default:
            return RESTWrite(
                api: self,
                head: head,
                author: caller.author,
                role: role,
                engine: league.engine,
                state: state
            )
            .perform(route, body: body)
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
