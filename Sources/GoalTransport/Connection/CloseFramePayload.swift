public import NIOCore
import NIOWebSocket

/// The body of a WebSocket close frame: an optional status code and a UTF-8 reason (RFC 6455 §5.5.1).
///
/// Value type, `Sendable`; pure encoding and decoding.
public struct CloseFramePayload: Sendable, Equatable {
    /// The status code; nil when the frame had an empty body.
    public var code: UInt16?
    /// The reason text (may be empty).
    public var reason: String

    public init(code: UInt16?, reason: String = "") {
        self.code = code
        self.reason = reason
    }

    /// Decodes a close frame's (unmasked) body.
    ///
    /// - Parameter buffer: The frame's application data.
    public init(decoding buffer: ByteBuffer) {
        var buffer = buffer
        guard let code = buffer.readInteger(as: UInt16.self) else {
            self.init(code: nil)
            return
        }
        let reason = buffer.readString(length: buffer.readableBytes) ?? ""
        self.init(code: code, reason: reason)
    }

    /// Encodes the body: nothing when `code` is nil, else the code and the reason cut to fit a control frame.
    ///
    /// - Parameter allocator: Allocates the buffer.
    /// - Returns: The frame body.
    public func encoded(allocator: ByteBufferAllocator) -> ByteBuffer {
        guard let code else { return allocator.buffer(capacity: 0) }
        var buffer = allocator.buffer(capacity: 2 + reason.utf8.count)
        buffer.writeInteger(code)
        var utf8 = Array(reason.utf8.prefix(123))
        while !utf8.isEmpty, String(validating: utf8, as: UTF8.self) == nil { utf8.removeLast() }
        buffer.writeBytes(utf8)
        return buffer
    }
}
