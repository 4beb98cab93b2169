import Foundation
import GoalModel
import GoalWire
import NIOCore
import NIOHTTP1
import Synchronization

/// One write of the HTTP API: reads the body and the conditions (`If-Match`, `Idempotency-Key`), builds the
/// mutation and hands it to the engine exactly as a session would (same rules, log, live push, exactly-once
/// table), then answers from the engine's reply: 201 for a create, 200 for PUT and DELETE (Goalbase's codes).
///
/// Threading: built and completed on the connection's event loop. Lifetime: one request.
struct RESTWrite {
    let api: RESTAPI
    let head: HTTPRequestHead
    /// The caller's name: its changesets' author, and the scope of its `Idempotency-Key`s.
    let author: String
    /// The caller's role in this league.
    let role: Role
    /// The league's engine: the write is its decision.
    let engine: Engine
    /// The durable league when the request arrived: existence and `If-Match` are checked on it.
    let state: LeagueState

    private var ifMatch: String? { head.headers.first(name: "if-match") }

    func perform(_ route: RESTRoute, body: [UInt8]) -> EventLoopFuture<RESTResponse> {
        // Only a create uses the key: PUT is a full replace (idempotent by itself) and a retried DELETE answers 404.
        var key: RESTIdempotencyKey?
        if route == .createPlayer || route == .createMatch, let text = head.headers.first(name: "idempotency-key") {
            guard let parsed = RESTIdempotencyKey(text, author: author) else {
                return api.answer(
                    .error(
                        .badRequest,
                        code: .invalid,
                        "Idempotency-Key must be 1–\(RESTIdempotencyKey.maximumLength) printable ASCII characters"
                    )
                )
            }
            key = parsed
        }
        let format = RESTBodyFormat(contentType: head.headers.first(name: "content-type"))
        if route.takesBody, format == nil, !body.isEmpty || head.headers.contains(name: "content-type") {
            return api.answer(unsupportedMediaType())
        }
        // No Content-Type and no body: read as an empty JSON body ("the body is not valid JSON").
        let bodyFormat = format ?? .json
        do throws(RESTBodyError) {
            switch route {
            case .createPlayer:
                let input = try RESTPlayerBody(body, format: bodyFormat)
                let id = PlayerID(key?.entityUUID ?? UUID())
                return submit(.createPlayer(id: id, name: input.name), base: 0, key: key) { after in
                    after.player(id).map {
                        RESTResponse.entity(.created, RESTEncoding.player($0), revision: $0.revision)
                    }
                }
            case .deletePlayer(let text):
                guard let player = UUID(uuidString: text).flatMap({ state.player(PlayerID($0)) }) else {
                    return api.answer(.error(.notFound, code: .notFound, "no player \(text)"))
                }
                if let refusal = failedPrecondition(player.revision, current: RESTEncoding.player(player)) {
                    return api.answer(refusal)
                }
                return submit(.deletePlayer(id: player.id), base: base(player.revision), key: nil) { _ in
                    .entity(.ok, RESTEncoding.player(player), revision: player.revision)
                }
            case .createMatch:
                let input = try RESTMatchBody(body, format: bodyFormat)
                let id = MatchID(key?.entityUUID ?? UUID())
                guard let home = playerIDs(input.homePlayerIDs), let away = playerIDs(input.awayPlayerIDs) else {
                    return api.answer(unknownPlayer())
                }
                let action = MutationAction.createMatch(
                    id: id,
                    homePlayers: home,
                    awayPlayers: away,
                    homeGoals: input.homeGoals,
                    awayGoals: input.awayGoals
                )
                return submit(action, base: 0, key: key) { after in
                    after.match(id).map {
                        RESTResponse.entity(.created, RESTEncoding.match($0, in: after), revision: $0.revision)
                    }
                }
            case .updateMatch(let text):
                guard let match = UUID(uuidString: text).flatMap({ state.match(MatchID($0)) }) else {
                    return api.answer(.error(.notFound, code: .notFound, "no match \(text)"))
                }
                // A bad body is 400 or 422 whatever If-Match says (schemathesis: such PUTs were 412): its shape, then
                // the match rules on the state read here (the engine checks them again on its own state).
                let input = try RESTMatchBody(body, format: bodyFormat)
                guard let home = playerIDs(input.homePlayerIDs), let away = playerIDs(input.awayPlayerIDs) else {
                    return api.answer(unknownPlayer())
                }
                if let rejection = MatchRules.checkGoals(input.homeGoals, side: .home)
                    ?? MatchRules.checkGoals(input.awayGoals, side: .away)
                    ?? MatchRules.checkSides(
                        homePlayers: home,
                        awayPlayers: away,
                        playerExists: { state.player($0) != nil }
                    )
                {
                    return api.answer(
                        .error(
                            RESTErrorMapping.status(rejection.code, conditional: false),
                            code: RESTErrorCode(rejection.code),
                            rejection.message
                        )
                    )
                }
                if let refusal = failedPrecondition(match.revision, current: RESTEncoding.match(match, in: state)) {
                    return api.answer(refusal)
                }
                let update = MatchUpdate(
                    homePlayers: home,
                    awayPlayers: away,
                    homeGoals: input.homeGoals,
                    awayGoals: input.awayGoals
                )
                return submit(.updateMatch(id: match.id, update), base: base(match.revision), key: nil) { after in
                    after.match(match.id).map {
                        RESTResponse.entity(.ok, RESTEncoding.match($0, in: after), revision: $0.revision)
                    }
                }
            case .deleteMatch(let text):
                guard let match = UUID(uuidString: text).flatMap({ state.match(MatchID($0)) }) else {
                    return api.answer(.error(.notFound, code: .notFound, "no match \(text)"))
                }
                if let refusal = failedPrecondition(match.revision, current: RESTEncoding.match(match, in: state)) {
                    return api.answer(refusal)
                }
                let deleted = RESTEncoding.match(match, in: state)
                return submit(.deleteMatch(id: match.id), base: base(match.revision), key: nil) { _ in
                    .entity(.ok, deleted, revision: match.revision)
                }
            case .openAPIDocument, .listPlayers, .listMatches, .rankings, .listLeagues, .createLeague, .renameLeague,
                .deleteLeague, .methodNotAllowed, .unknownPath:
                return api.answer(.error(.internalServerError, code: .`internal`, "not a write"))
            }
        } catch {
            return api.answer(.error(.badRequest, code: .invalid, error.message))
        }
    }

    /// A create's base is 0: it edits no value read before, and a retry with the same `Idempotency-Key` must send
    /// the same payload (the base is part of it). With `If-Match`, the base is the entity's revision the client read (the engine then refuses a change made
    /// since as `conflict` → 412); without it, a blind write at the current head (Goalbase's last-writer-wins).
    private func base(_ revision: Revision) -> Revision { ifMatch == nil ? state.revision : revision }

    /// 412 with the current entity when `If-Match` names neither `*` nor the entity's revision.
    private func failedPrecondition(_ revision: Revision, current: [UInt8]) -> RESTResponse? {
        guard let ifMatch, ifMatch.trimmingCharacters(in: .whitespaces) != "*" else { return nil }
        guard RESTETag.revisions(ifMatch).contains(revision) else {
            return .entity(.preconditionFailed, current, revision: revision)
        }
        return nil
    }

    /// 415: a write's body must be JSON or a form, in UTF-8.
    private func unsupportedMediaType() -> RESTResponse {
        let given = head.headers.first(name: "content-type").map { "not \($0)" } ?? "and say so in Content-Type"
        return .error(
            .unsupportedMediaType,
            code: .unsupportedMediaType,
            "send the body as \(RESTBodyFormat.accepted) (UTF-8), \(given)"
        )
    }

    private func playerIDs(_ texts: [String]) -> [PlayerID]? {
        var ids: [PlayerID] = []
        for text in texts {
            guard let uuid = UUID(uuidString: text) else { return nil }
            ids.append(PlayerID(uuid))
        }
        return ids
    }

    private func unknownPlayer() -> RESTResponse {
        .error(.unprocessableEntity, code: RESTErrorCode(.unknownPlayer), "a player id names no player")
    }

    /// Hands the mutation to the engine and maps its answer; `success` builds the 2xx from the state after the
    /// batch (nil when the entity is gone by then: 404).
    private func submit(
        _ action: MutationAction,
        base: Revision,
        key: RESTIdempotencyKey?,
        success: @escaping @Sendable (LeagueState) -> RESTResponse?
    ) -> EventLoopFuture<RESTResponse> {
        let collaborators = api.collaborators
        let id =
            key.map { MutationID(instance: $0.instance, seq: 1) }
            ?? MutationID(
                instance: collaborators.context.keylessInstance,
                seq: collaborators.context.nextKeylessSeq()
            )
        let answer = RESTPendingAnswer(promise: api.eventLoop.makePromise())
        let request = MutationRequest(
            mutation: Mutation(id: id, base: base, action: action),
            author: author,
            role: role,
            replyTo: ReplyAddress(shard: 0, session: 0),  // unused: `direct` answers
            direct: DirectReply { message, after in answer.complete(.success((message, after))) }
        )
        guard engine.submit(request) else {
            return api.answer(Self.overloaded(retryAfterMilliseconds: collaborators.overloadedRetryMilliseconds))
        }
        let timeout = api.eventLoop.scheduleTask(in: RESTAPI.answerTimeout) {
            answer.complete(.failure(RESTAnswerTimeout()))
        }
        let conditional = ifMatch != nil
        return answer.promise.futureResult.map { pair -> RESTResponse in
            let (message, after) = pair
            timeout.cancel()
            switch message {
            case .ack:
                return success(after) ?? .error(.notFound, code: .notFound, "the entity was deleted since")
            case .rejected(_, let rejection):
                let status = RESTErrorMapping.status(rejection.code, conditional: conditional)
                if status == .preconditionFailed, let current = rejection.current {
                    return Self.entity(current, in: after)
                }
                return .error(status, code: RESTErrorCode(rejection.code), rejection.message)
            case .overloaded(_, let delay), .rateLimited(_, let delay):
                return Self.overloaded(retryAfterMilliseconds: delay)
            default:
                return .error(.internalServerError, code: .`internal`, "unexpected engine answer")
            }
        }.recover { _ in
            .error(
                .serviceUnavailable,
                code: .overloaded,
                "the write was not answered in time; retry with the same Idempotency-Key"
            )
        }
    }

    private static func overloaded(retryAfterMilliseconds: Int) -> RESTResponse {
        var response = RESTResponse.error(.serviceUnavailable, code: .overloaded, "goald is busy; retry later")
        response.headers.append(("retry-after", String(max(1, (retryAfterMilliseconds + 999) / 1000))))
        return response
    }

    private static func entity(_ current: EntityState, in state: LeagueState) -> RESTResponse {
        switch current {
        case .player(let player): .entity(.preconditionFailed, RESTEncoding.player(player), revision: player.revision)
        case .match(let match):
            .entity(.preconditionFailed, RESTEncoding.match(match, in: state), revision: match.revision)
        }
    }
}

/// The write's answer slot: completed once, by the engine's reply or the timeout, whichever comes first.
/// Threading: `Sendable`; the flag is atomic.
final class RESTPendingAnswer: Sendable {
    let promise: EventLoopPromise<(ServerMessage, LeagueState)>
    private let done = Atomic<Bool>(false)

    init(promise: EventLoopPromise<(ServerMessage, LeagueState)>) { self.promise = promise }

    func complete(_ result: Result<(ServerMessage, LeagueState), any Error>) {
        guard done.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else {
            return
        }
        promise.completeWith(result)
    }
}

/// The engine did not answer within `RESTAPI.answerTimeout`.
struct RESTAnswerTimeout: Error {}
