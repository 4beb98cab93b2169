public import GoalClient
public import GoalWire

/// Why a `LeagueDirectoryClient` call failed: no answer, an answer with another status than the route's success,
/// or an answer that is not the documented shape. Value type, `Sendable`.
public enum LeagueDirectoryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No HTTP answer: goald could not be reached, TLS failed, or the answer did not arrive in time.
    case transport(TransportFailure)
    /// goald answered `status` (401, 403, 409 …) with this error body (docs/HTTP.md "Errors"); a body that is not
    /// goald's error shape is kept as `message` (its first 200 characters) without a code.
    case status(Int, RESTErrorBody)
    /// goald answered the route's success status with a body that is not the documented shape.
    case malformedResponse(status: Int, WireDecodingError)

    /// The HTTP status, when goald answered.
    public var status: Int? {
        switch self {
        case .transport: nil
        case .status(let status, _): status
        case .malformedResponse(let status, _): status
        }
    }

    /// True for 409 on `createLeague`: a league with that id exists already.
    public var isLeagueExists: Bool { status == 409 }

    public var description: String {
        switch self {
        case .transport(let failure):
            "\(failure)"
        case .status(let status, let body):
            "HTTP \(status)" + (body.code.map { " \($0.rawValue)" } ?? "") + ": \(body.message)"
        case .malformedResponse(let status, let error):
            "HTTP \(status) with an unreadable body: \(error)"
        }
    }
}
