/// Why a permessage-deflate message could not be read. Value type, `Sendable`.
public enum PerMessageDeflateError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The inflated message would pass `limit` bytes (a close with 1009).
    case messageTooLarge(limit: Int)
    /// The compressed bytes are not a valid DEFLATE stream (a close with 1007).
    case corruptData
    /// RSV1 on a frame where RFC 7692 §6 forbids it: a control frame or a continuation (1002).
    case misplacedRSV1(String)
    /// A new data frame began before the fragmented compressed message ended (1002).
    case interleavedMessage
    /// zlib itself failed (out of memory or an internal error).
    case zlib(String)

    public var description: String {
        switch self {
        case .messageTooLarge(let limit): "an inflated message passed \(limit) bytes"
        case .corruptData: "a compressed message is not valid DEFLATE data (RFC 7692 §7.2.2)"
        case .misplacedRSV1(let frame): "RSV1 is set on a \(frame) frame (RFC 7692 §6)"
        case .interleavedMessage: "a new message began inside a fragmented compressed message (RFC 6455 §5.4)"
        case .zlib(let reason): "zlib failed: \(reason)"
        }
    }
}
