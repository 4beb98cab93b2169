import Foundation
import GoalModel
import GoalStore
import GoalWire
import NIOCore
import NIOHTTP1
import NIOPosix

/// The HTTP API's league directory (docs/HTTP.md "Leagues"): `GET /api/v1/leagues` lists the leagues the caller may
/// use with its role in each; `POST /api/v1/leagues` creates one, `PATCH /api/v1/leagues/{id}` renames one and
/// `DELETE /api/v1/leagues/{id}` deletes one (its sessions are closed with `unknown_league`, 4404; the default
/// league cannot be deleted). Creating, renaming and deleting need an operator token (admin of every league).
///
/// Threading: built and completed on the connection's event loop; the catalog is read and written on the thread
/// pool, and a deletion runs as a task (`LeagueHost.delete`). Lifetime: one request.
struct RESTLeagueDirectory {
    let api: RESTAPI
    let head: HTTPRequestHead
    let caller: RESTCaller

    private var leagues: LeagueHost { api.collaborators.leagues }

    func perform(_ route: RESTRoute, body: [UInt8]) -> EventLoopFuture<RESTResponse> {
        if route == .listLeagues { return list() }
        guard caller.isOperator else {
            if caller.isAnonymous {
                return api.answer(RESTRefusal(unauthorized: "managing leagues needs an operator token").response)
            }
            return api.answer(
                .error(
                    .forbidden,
                    code: .operatorOnly,
                    "only an operator token (admin of every league) may create, rename or delete leagues"
                )
            )
        }
        switch route {
        case .createLeague: return create(body)
        case .renameLeague(let id): return rename(id, body)
        case .deleteLeague(let id): return delete(id)
        default: return api.answer(.error(.internalServerError, code: .`internal`, "not a league route"))
        }
    }

    /// `{"leagues":[…]}`: every league the caller has a role in, the default league first.
    private func list() -> EventLoopFuture<RESTResponse> {
        let catalog = leagues.catalog
        let caller = caller
        return api.collaborators.threadPool.runIfActive(eventLoop: api.eventLoop) { () throws -> [LeagueListing] in
            guard let catalog else {
                // A store without a catalog serves the default league only; its creation time is not kept.
                return caller.role(in: .default).map {
                    [
                        LeagueListing(
                            id: .default,
                            name: LeagueInfo.defaultName,
                            created: Self.text(Timestamp(millisecondsSince1970: 0)),
                            role: $0
                        )
                    ]
                } ?? []
            }
            return try catalog.leagues().compactMap { info in
                caller.role(in: info.slug).map { Self.listing(info, role: $0) }
            }
        }
        .map { RESTResponse(status: .ok, body: RESTLeagues.encodeList($0)) }
        .recover { _ in Self.unavailable }
    }

    private func create(_ body: [UInt8]) -> EventLoopFuture<RESTResponse> {
        let input: RESTLeagueBody
        switch read(body, withID: true) {
        case .success(let read): input = read
        case .failure(let refusal): return api.answer(refusal.response)
        }
        let slug: LeagueSlug
        do {
            slug = try LeagueSlug(validating: input.id ?? "")
        } catch {
            return api.answer(.error(.badRequest, code: .invalid, "id: \(error)"))
        }
        let name: PlayerName
        switch Self.leagueName(input.name) {
        case .success(let valid): name = valid
        case .failure(let refusal): return api.answer(refusal.response)
        }
        guard let catalog = leagues.catalog else { return api.answer(Self.unsupported) }
        let info = LeagueInfo(slug: slug, name: name, created: api.collaborators.clock())
        let role = caller.role(in: slug) ?? .admin
        return api.collaborators.threadPool.runIfActive(eventLoop: api.eventLoop) { try catalog.createLeague(info) }
            .map { _ in
                RESTResponse(
                    status: .created,
                    headers: [("location", RESTRoute.prefix + "leagues/\(slug)")],
                    body: RESTLeagues.encode(Self.listing(info, role: role))
                )
            }
            .recover { error in
                switch (error as? StorageError)?.code {
                case .leagueExists?, .defaultLeague?:
                    .error(.conflict, code: .leagueExists, "a league with the id \"\(slug)\" exists already")
                default: Self.unavailable
                }
            }
    }

    private func rename(_ id: String, _ body: [UInt8]) -> EventLoopFuture<RESTResponse> {
        guard let slug = Self.slug(id) else { return api.answer(Self.unknown(id)) }
        let input: RESTLeagueBody
        switch read(body, withID: false) {
        case .success(let read): input = read
        case .failure(let refusal): return api.answer(refusal.response)
        }
        let name: PlayerName
        switch Self.leagueName(input.name) {
        case .success(let valid): name = valid
        case .failure(let refusal): return api.answer(refusal.response)
        }
        guard let catalog = leagues.catalog else { return api.answer(Self.unsupported) }
        let role = caller.role(in: slug) ?? .admin
        return api.collaborators.threadPool.runIfActive(eventLoop: api.eventLoop) {
            try catalog.renameLeague(slug, to: name)
        }
        .map { RESTResponse(status: .ok, body: RESTLeagues.encode(Self.listing($0, role: role))) }
        .recover { error in
            (error as? StorageError)?.code == .leagueNotFound ? Self.unknown(id) : Self.unavailable
        }
    }

    private func delete(_ id: String) -> EventLoopFuture<RESTResponse> {
        guard let slug = Self.slug(id) else { return api.answer(Self.unknown(id)) }
        guard !slug.isDefault else {
            return api.answer(
                .error(
                    .conflict,
                    code: .defaultLeague,
                    "the default league cannot be deleted: every client that names no league follows it"
                )
            )
        }
        guard leagues.catalog != nil else { return api.answer(Self.unknown(id)) }
        let leagues = leagues
        let promise = api.eventLoop.makePromise(of: RESTResponse.self)
        promise.completeWithTask {
            do throws(StorageError) {
                try await leagues.delete(slug)
                return RESTResponse(status: .noContent, body: [])
            } catch {
                return error.code == .leagueNotFound ? Self.unknown(id) : Self.unavailable
            }
        }
        return promise.futureResult
    }

    /// The body of a POST or PATCH: 415 for another media type, 400 for a shape error.
    private func read(_ body: [UInt8], withID: Bool) -> Result<RESTLeagueBody, RESTRefusal> {
        let format = RESTBodyFormat(contentType: head.headers.first(name: "content-type"))
        if format == nil, !body.isEmpty || head.headers.contains(name: "content-type") {
            let given = head.headers.first(name: "content-type").map { "not \($0)" } ?? "and say so in Content-Type"
            return .failure(
                RESTRefusal(
                    response: .error(
                        .unsupportedMediaType,
                        code: .unsupportedMediaType,
                        "send the body as \(RESTBodyFormat.accepted) (UTF-8), \(given)"
                    )
                )
            )
        }
        do {
            return .success(try RESTLeagueBody(body, format: format ?? .json, withID: withID))
        } catch {
            return .failure(RESTRefusal(response: .error(.badRequest, code: .invalid, error.message)))
        }
    }

    /// A league's name follows a player name's rules; 400 names the rule it broke.
    private static func leagueName(_ text: String) -> Result<PlayerName, RESTRefusal> {
        do {
            return .success(try PlayerName(validating: text))
        } catch {
            let message = error.description.replacingOccurrences(of: "a player name", with: "a league name")
            return .failure(RESTRefusal(response: .error(.badRequest, code: .invalid, "name: \(message)")))
        }
    }

    /// The league `id` names, or nil when it cannot be a league's id (404: no league has it).
    private static func slug(_ id: String) -> LeagueSlug? {
        do {
            return try LeagueSlug(validating: id)
        } catch {
            return nil
        }
    }

    static func listing(_ info: LeagueInfo, role: Role) -> LeagueListing {
        LeagueListing(id: info.slug, name: info.name.value, created: text(info.created), role: role)
    }

    /// RFC 3339 in UTC to the second (`2026-11-29T09:37:06Z`).
    static func text(_ time: Timestamp) -> String {
        Date(timeIntervalSince1970: Double(time.millisecondsSince1970) / 1_000).ISO8601Format()
    }

    static func unknown(_ id: String) -> RESTResponse {
        .error(.notFound, code: .unknownLeague, "there is no league \(id)")
    }

    static let unavailable = RESTResponse.error(
        .serviceUnavailable,
        code: .storeUnavailable,
        "the league catalog cannot be read or written now; try again"
    )

    static let unsupported = RESTResponse.error(
        .notImplemented,
        code: .leaguesUnsupported,
        "this daemon's store keeps one league only"
    )
}
