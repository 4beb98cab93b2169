import GoalWire
import NIOCore
import NIOWebSocket

/// A session's life and what it does with each inbound frame, as a state machine (docs/PROTOCOL.md §3 and §7):
/// phases move forward only (awaitingHello → authenticating → open → closing); before hello is accepted a 4 KiB
/// budget covers every text frame, and frames pipelined behind the hello wait until it is; an open session decodes
/// client messages; a closing one reads nothing but the peer's close. It takes frames and the hello's outcome and
/// returns actions; `SessionMachine` decodes and answers, `SessionHandler` writes. No I/O, no clock: tested directly
/// (SessionInboundTests).
///
/// Value type, confined to the session's event loop with its handler. Lifetime: the connection's.
struct SessionInbound {
    /// What the handler does with one inbound frame.
    enum Action {
        /// Decode the first message (it must be `hello`) within `limit` bytes.
        case decodeHello(ByteBuffer, limit: Int)
        /// Decode a client message of the open session within `limit` bytes.
        case decodeMessage(ByteBuffer, limit: Int)
        /// Answer a ping with this payload.
        case pong(ByteBuffer)
        /// The peer closed: answer with this close code and close the connection.
        case answerClose(UInt16)
        /// The peer's answer to our close: close the connection now.
        case closeConnection
        /// Fail the session with this error and its close code (or `close` when RFC 6455 names one).
        case fail(WireErrorCode, String, close: CloseCode? = nil)
        /// Nothing to do (a pong, a frame held until hello is accepted, anything after our close).
        case none
    }

    private(set) var phase = SessionPhase.awaitingHello
    private var bytesBeforeHello = 0
    /// Text frames that arrived while `hello` was being authenticated, handled once it is.
    private var pending: [ByteBuffer] = []
    private let maxBytesBeforeHello: Int
    private let maxMessageBytes: Int

    init(maxBytesBeforeHello: Int, maxMessageBytes: Int) {
        self.maxBytesBeforeHello = maxBytesBeforeHello
        self.maxMessageBytes = maxMessageBytes
    }

    var isClosing: Bool {
        if case .closing = phase { return true }
        return false
    }

    /// One inbound frame (after the decoder, the flood guard and the fragment aggregator).
    mutating func frame(opcode: WebSocketOpcode, data: ByteBuffer) -> Action {
        if case .closing = phase { return opcode == .connectionClose ? .closeConnection : .none }
        switch opcode {
        case .text:
            return text(data)
        case .binary:
            return .fail(.badMessage, "binary frames are not part of this protocol; send JSON text frames")
        case .ping:
            return .pong(data)
        case .pong:
            return .none
        case .connectionClose:
            return .answerClose(Self.answer(toClose: data))
        default:
            return .fail(.badMessage, "reserved opcode \(opcode) (RFC 6455 §5.2)", close: .websocketProtocolError)
        }
    }

    private mutating func text(_ data: ByteBuffer) -> Action {
        switch phase {
        case .awaitingHello, .authenticating:
            // Still "before hello is accepted": the 4 KiB budget covers what is pipelined behind the hello too.
            bytesBeforeHello += data.readableBytes
            guard bytesBeforeHello <= maxBytesBeforeHello else {
                return .fail(.tooLarge, "more than \(maxBytesBeforeHello) bytes before hello was accepted")
            }
            if case .authenticating = phase {
                pending.append(data)
                return .none
            }
            return .decodeHello(data, limit: maxBytesBeforeHello)
        case .open:
            return .decodeMessage(data, limit: maxMessageBytes)
        case .closing:
            return .none
        }
    }

    /// The code that answers a peer's close frame (RFC 6455 §5.5.1, §7.1.5, §7.4): its own code when that may be
    /// sent on the wire, 1000 for an empty close, 1002 for a 1-byte payload or a code no endpoint may send (0–999,
    /// 1004–1006, 1015, unassigned 1016–2999, 5000+), 1007 for a reason that is not UTF-8.
    static func answer(toClose payload: ByteBuffer) -> UInt16 {
        var payload = payload
        guard payload.readableBytes > 0 else { return CloseCode.normal.rawValue }
        guard let code = payload.readInteger(as: UInt16.self) else { return protocolError }
        switch code {
        case 1000...1003, 1007...1014, 3000...4999: break
        default: return protocolError
        }
        guard String(validating: payload.readableBytesView, as: UTF8.self) != nil else { return invalidPayload }
        return code
    }

    static let protocolError: UInt16 = 1002
    static let invalidPayload: UInt16 = 1007

    /// The first message was `hello` in this protocol version: authenticate it (off the event loop).
    mutating func authenticating(_ hello: ClientMessage.Hello) {
        guard case .awaitingHello = phase else { return }
        phase = .authenticating(hello)
    }

    /// The hello was accepted and the session registered.
    /// - Returns: the text frames pipelined behind the hello, to handle now, in order.
    mutating func opened(_ identity: SessionIdentity) -> [ByteBuffer] {
        guard case .authenticating = phase else { return [] }
        phase = .open(identity)
        defer { pending = [] }
        return pending
    }

    /// The session sends its error or close now.
    /// - Returns: false when it was closing already (nothing more may be sent).
    mutating func close() -> Bool {
        if case .closing = phase { return false }
        phase = .closing
        pending = []
        return true
    }
}
