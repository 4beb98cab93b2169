/// The machine-readable code of an `error {code, message}` message; the raw values are the wire codes.
///
/// Every `error` is fatal to the session: the server sends it, then closes with `closeCode` (see
/// `CloseCode+WireErrorCode.swift`). Refusals of a single mutation are not errors but `rejected` messages.
/// Value type, `Sendable`.
public enum WireErrorCode: String, Hashable, Sendable, CaseIterable {
    /// The message is not valid JSON, not valid UTF-8, or does not have the documented shape.
    case badMessage = "bad_message"
    /// The message's `type` is not one this protocol version knows.
    case unknownType = "unknown_type"
    /// The message is larger than the limit in force (64 KiB, or 4 KiB before `hello`).
    case tooLarge = "too_large"
    /// A message other than `hello` arrived before the session was authenticated.
    case notAuthenticated = "not_authenticated"
    /// A second `hello` arrived on an authenticated session.
    case alreadyAuthenticated = "already_authenticated"
    /// The token is unknown.
    case unauthorized
    /// The `hello` named a league this server does not have (asked by a token allowed in every league).
    case unknownLeague = "unknown_league"
    /// The token is not allowed in the league the `hello` named (whether or not that league exists).
    case leagueForbidden = "league_forbidden"
    /// The token has been revoked (also sent to live sessions of that token when it is revoked).
    case tokenRevoked = "token_revoked"
    /// The `hello` asked for a protocol version this server does not speak.
    case protocolVersion = "protocol_version"
    /// No `hello` within the handshake deadline.
    case handshakeTimeout = "handshake_timeout"
    /// Nothing read from the peer for `WireProtocol.idleTimeoutSeconds`.
    case heartbeatTimeout = "heartbeat_timeout"
    /// The session's outbound queue passed its bound; resume from the last revision received.
    case slowConsumer = "slow_consumer"
    /// The session sent frames faster than its flood bucket allows.
    case flood
    /// The server is overloaded; reconnect later.
    case overloaded
    /// A per-IP, per-token or total connection cap was reached.
    case connectionLimit = "connection_limit"
    /// The server is shutting down.
    case shuttingDown = "shutting_down"
    /// The server failed internally (for example a failed write); it restarts from its durable state.
    case internalError = "internal"
    /// The stream cannot continue (gap, epoch change by a restore); reconnect and resume.
    case resync
    /// Another session with the same `client_instance` was opened; this one is obsolete.
    case sessionReplaced = "session_replaced"
}
