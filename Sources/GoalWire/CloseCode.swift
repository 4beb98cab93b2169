/// A WebSocket close code as this protocol uses it, in two classes.
///
/// - Reconnect class: 4000–4099, 1001 (going away) and every code not listed as terminal (1000, 1006, 1011 …).
///   The client reconnects with jittered backoff and resumes from its revision; nothing is lost.
/// - Terminal class: 4400–4499, plus the RFC 6455 protocol-violation codes 1002, 1003, 1007, 1008, 1009 and 1010.
///   Reconnecting would fail the same way; the client stops and reports (goal-client exit code 4 for 4401/4403).
///
/// A handshake timeout (4011) is in the reconnect class: a correct client sends `hello` right after the upgrade,
/// so missing the 10 s deadline means a stalled network, which a later attempt may not meet.
/// Value type, `Sendable`.
public struct CloseCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// 1000: a deliberate, normal close.
    public static let normal = CloseCode(rawValue: 1000)
    /// 1001: the server is shutting down (or the client leaves). Reconnect.
    public static let goingAway = CloseCode(rawValue: 1001)

    /// 1002: the peer broke RFC 6455 itself (an unmasked client frame, RSV bits, a reserved opcode, a fragmented or
    /// oversized control frame, a malformed close). Terminal.
    public static let websocketProtocolError = CloseCode(rawValue: 1002)
    /// 1007: a text message that is not UTF-8. Terminal.
    public static let invalidFramePayloadData = CloseCode(rawValue: 1007)

    /// 4000: internal server error or restart (for example a failed batch write). Reconnect.
    public static let serverError = CloseCode(rawValue: 4000)
    /// 4001: the server is overloaded. Reconnect after backoff.
    public static let overloaded = CloseCode(rawValue: 4001)
    /// 4002: a per-IP, per-token or total connection cap was reached. Reconnect after backoff.
    public static let connectionLimit = CloseCode(rawValue: 4002)
    /// 4008: slow consumer; the queue was dropped. Reconnect and resume from the last revision received.
    public static let slowConsumer = CloseCode(rawValue: 4008)
    /// 4010: nothing read for 40 s (heartbeat timeout). Reconnect.
    public static let heartbeatTimeout = CloseCode(rawValue: 4010)
    /// 4011: TLS + upgrade + hello did not complete within 10 s. Reconnect.
    public static let handshakeTimeout = CloseCode(rawValue: 4011)
    /// 4012: the stream cannot continue (gap, epoch change); reconnect and resume (a snapshot may follow).
    public static let resync = CloseCode(rawValue: 4012)
    /// 4029: the session flooded the server with frames. Reconnect after backoff.
    public static let flood = CloseCode(rawValue: 4029)

    /// 4400: protocol violation (bad message, unknown type, message before hello, second hello). Terminal.
    public static let protocolViolation = CloseCode(rawValue: 4400)
    /// 4401: unknown token. Terminal.
    public static let unauthorized = CloseCode(rawValue: 4401)
    /// 4403: the token was revoked. Terminal.
    public static let tokenRevoked = CloseCode(rawValue: 4403)
    /// 4404: the league named in `hello` does not exist. Terminal.
    public static let unknownLeague = CloseCode(rawValue: 4404)
    /// 4405: the token is not allowed in the league named in `hello`. Terminal.
    public static let leagueForbidden = CloseCode(rawValue: 4405)
    /// 4409: another session with the same client instance replaced this one. Terminal for this session.
    public static let sessionReplaced = CloseCode(rawValue: 4409)
    /// 4413: a message exceeded the size limit in force. Terminal.
    public static let messageTooLarge = CloseCode(rawValue: 4413)
    /// 4426: the protocol version in `hello` is not supported. Terminal.
    public static let unsupportedProtocolVersion = CloseCode(rawValue: 4426)

    /// Every code this protocol sends, for documentation and tests.
    public static let allDefined: [CloseCode] = [
        .normal, .goingAway, .websocketProtocolError, .invalidFramePayloadData, .serverError, .overloaded,
        .connectionLimit, .slowConsumer, .heartbeatTimeout,
        .handshakeTimeout, .resync, .flood, .protocolViolation, .unauthorized, .tokenRevoked, .unknownLeague,
        .leagueForbidden, .sessionReplaced, .messageTooLarge, .unsupportedProtocolVersion,
    ]

    /// True for the terminal class: 4400–4499 and the RFC 6455 protocol-violation codes. Do not reconnect.
    public var isTerminal: Bool {
        switch rawValue {
        case 4400...4499, 1002, 1003, 1007, 1008, 1009, 1010: true
        default: false
        }
    }

    /// True for every code outside the terminal class: reconnect with backoff and resume.
    public var shouldReconnect: Bool { !isTerminal }

    /// A short name for logs ("slow_consumer (4008)").
    public var description: String {
        let name: String =
            switch self {
            case .normal: "normal"
            case .goingAway: "going_away"
            case .websocketProtocolError: "websocket_protocol_error"
            case .invalidFramePayloadData: "invalid_frame_payload_data"
            case .serverError: "server_error"
            case .overloaded: "overloaded"
            case .connectionLimit: "connection_limit"
            case .slowConsumer: "slow_consumer"
            case .heartbeatTimeout: "heartbeat_timeout"
            case .handshakeTimeout: "handshake_timeout"
            case .resync: "resync"
            case .flood: "flood"
            case .protocolViolation: "protocol_violation"
            case .unauthorized: "unauthorized"
            case .tokenRevoked: "token_revoked"
            case .unknownLeague: "unknown_league"
            case .leagueForbidden: "league_forbidden"
            case .sessionReplaced: "session_replaced"
            case .messageTooLarge: "message_too_large"
            case .unsupportedProtocolVersion: "unsupported_protocol_version"
            default: isTerminal ? "terminal" : "reconnect"
            }
        return "\(name) (\(rawValue))"
    }
}
