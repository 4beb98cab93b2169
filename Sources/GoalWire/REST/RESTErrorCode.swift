public import GoalModel

/// The `code` beside Goalbase's error body (docs/HTTP.md "Errors"): one of the HTTP API's own codes below, or the
/// rejection code of the domain rule that refused a write (`MutationRejection.Code`, docs/PROTOCOL.md §4).
/// Value type, `Sendable`.
public struct RESTErrorCode: Hashable, Sendable, RawRepresentable {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    /// The code of the rule that refused a write.
    public init(_ rejection: MutationRejection.Code) { rawValue = rejection.rawValue }

    /// 400: a body or header that cannot be read.
    public static let invalid = RESTErrorCode(rawValue: "invalid")
    /// 401: no token, not Bearer, or an unknown or revoked token.
    public static let unauthenticated = RESTErrorCode(rawValue: "unauthenticated")
    /// 404: no such entity or route.
    public static let notFound = RESTErrorCode(rawValue: "not_found")
    /// 405: a known path with another method.
    public static let methodNotAllowed = RESTErrorCode(rawValue: "method_not_allowed")
    /// 408: the body did not arrive in time.
    public static let timeout = RESTErrorCode(rawValue: "timeout")
    /// 413: the body is over the message limit.
    public static let tooLarge = RESTErrorCode(rawValue: "too_large")
    /// 415: the body is neither JSON nor a form in UTF-8.
    public static let unsupportedMediaType = RESTErrorCode(rawValue: "unsupported_media_type")
    /// 503: the engine is busy or the write was not answered in time.
    public static let overloaded = RESTErrorCode(rawValue: "overloaded")
    /// 503: the store could not be read.
    public static let storeUnavailable = RESTErrorCode(rawValue: "store_unavailable")
    /// 404: no league with this id (or the id cannot be one); the WebSocket's `unknown_league`.
    public static let unknownLeague = RESTErrorCode(rawValue: "unknown_league")
    /// 403: the token has no role in this league; the WebSocket's `league_forbidden`.
    public static let leagueForbidden = RESTErrorCode(rawValue: "league_forbidden")
    /// 403: only an operator token (admin of every league) may create, rename or delete leagues.
    public static let operatorOnly = RESTErrorCode(rawValue: "operator_only")
    /// 409: a league with this id exists already.
    public static let leagueExists = RESTErrorCode(rawValue: "league_exists")
    /// 409: the default league cannot be deleted.
    public static let defaultLeague = RESTErrorCode(rawValue: "default_league")
    /// 501: this daemon's store keeps one league only (it has no league catalog).
    public static let leaguesUnsupported = RESTErrorCode(rawValue: "leagues_unsupported")
    /// 500: goald failed internally.
    public static let `internal` = RESTErrorCode(rawValue: "internal")
}
