// The one place that maps protocol errors to close codes: keep every such mapping in this extension
// (docs/PROTOCOL.md §7, "Error codes", lists them).

extension WireErrorCode {
    /// The close code that follows an `error` with this code.
    public var closeCode: CloseCode {
        switch self {
        case .badMessage, .unknownType, .notAuthenticated, .alreadyAuthenticated: .protocolViolation
        case .tooLarge: .messageTooLarge
        case .unauthorized: .unauthorized
        case .tokenRevoked: .tokenRevoked
        case .unknownLeague: .unknownLeague
        case .leagueForbidden: .leagueForbidden
        case .protocolVersion: .unsupportedProtocolVersion
        case .handshakeTimeout: .handshakeTimeout
        case .heartbeatTimeout: .heartbeatTimeout
        case .slowConsumer: .slowConsumer
        case .flood: .flood
        case .overloaded: .overloaded
        case .connectionLimit: .connectionLimit
        case .shuttingDown: .goingAway
        case .internalError: .serverError
        case .resync: .resync
        case .sessionReplaced: .sessionReplaced
        }
    }
}

extension WireDecodingError {
    /// The close code for a message that failed to decode: 1007 when it was not UTF-8 (RFC 6455 §8.1), else its
    /// code's (4400, or 4413 when too large).
    public var closeCode: CloseCode { isInvalidUTF8 ? .invalidFramePayloadData : code.closeCode }
}

extension CloseCode {
    /// The close code for an inbound message that failed to decode (`4400`, `4413` when too large, `1007` when not
    /// UTF-8).
    public init(_ error: WireDecodingError) { self = error.closeCode }
}
