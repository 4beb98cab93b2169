import GoalClient
import GoalDeflate
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOWebSocket

/// The open connection: inbound frames, outbound commands and the close handshake.
///
/// Threading: as `ConnectionCore`, confined to the connection's event loop.
extension ConnectionCore {
    /// Handles one inbound frame (fragments already joined by `NIOWebSocketFrameAggregator`).
    func received(_ frame: WebSocketFrame) {
        switch phase {
        case .open, .closing:
            break
        case .connecting, .done:
            return
        }
        // Compressed messages were inflated (RSV1 cleared) before the aggregator; any RSV bit left is unnegotiated.
        if frame.rsv1 || frame.rsv2 || frame.rsv3 {
            violation(code: 1002, reason: "RSV bits are set but no extension was negotiated (RFC 6455 §5.2)")
            return
        }
        switch frame.opcode {
        case .text, .binary:
            deliver(.message(Array(frame.unmaskedData.readableBytesView)))
        case .ping:
            if case .open = phase {
                write(opcode: .pong, data: frame.unmaskedData)
                frameContext?.flush()
            }
        case .pong:
            deliver(.pong)
        case .connectionClose:
            peerClosed(CloseFramePayload(decoding: frame.unmaskedData))
        default:
            violation(code: 1002, reason: "unexpected frame opcode \(frame.opcode)")
        }
    }

    /// Handles an error raised after the upgrade: frame-level violations close with the matching code; others are
    /// kept to explain the drop that follows.
    func streamError(_ error: any Error) {
        switch error {
        case NIOWebSocketError.invalidFrameLength:
            violation(code: 1009, reason: "inbound frame larger than \(configuration.maxInboundMessageSize) bytes")
        case NIOWebSocketFrameAggregator.Error.accumulatedFrameSizeIsTooLarge:
            violation(code: 1009, reason: "inbound message larger than \(configuration.maxInboundMessageSize) bytes")
        case NIOWebSocketFrameAggregator.Error.tooManyFragments:
            violation(code: 1009, reason: "inbound message in more than \(configuration.maxInboundFragments) fragments")
        case PerMessageDeflateError.messageTooLarge:
            violation(code: 1009, reason: "inflated message larger than \(configuration.maxInboundMessageSize) bytes")
        case PerMessageDeflateError.corruptData:
            violation(code: 1007, reason: "\(error)")
        case let error as PerMessageDeflateError:
            violation(code: 1002, reason: "\(error)")
        case let error as NIOWebSocketError:
            violation(code: 1002, reason: "protocol error: \(error)")
        case let error as NIOWebSocketFrameAggregator.Error:
            violation(code: 1002, reason: "protocol error: \(error)")
        default:
            if firstError == nil { firstError = error }
        }
    }

    /// Writes the commands queued in the mailbox, then flushes once.
    func drainMailbox() {
        switch phase {
        case .connecting:
            return  // `drainPending` stays set: opening drains.
        case .closing, .done:
            mailbox.withLockedValue { $0.shut() }
            return
        case .open:
            break
        }
        let commands = mailbox.withLockedValue { $0.take() }
        guard !commands.isEmpty, let context = frameContext else { return }
        for command in commands {
            switch command {
            case .message(let bytes):
                write(opcode: .text, data: context.channel.allocator.buffer(bytes: bytes))
            case .ping:
                write(opcode: .ping, data: context.channel.allocator.buffer(capacity: 0))
            }
        }
        context.flush()
    }

    /// `close(code:)` from the user: abandons an opening attempt, or sends what is queued and a close frame.
    func closeRequested(code: UInt16) {
        switch phase {
        case .connecting:
            finish(.closed(code: nil, reason: "closed by this side before the connection opened"))
        case .open:
            drainMailbox()
            mailbox.withLockedValue { $0.shut() }
            sendClose(CloseFramePayload(code: code), thenCloseChannel: false)
            startClosing()
        case .closing, .done:
            break
        }
    }

    /// The peer's close frame: answers it (when the peer started the close) and ends the connection.
    private func peerClosed(_ payload: CloseFramePayload) {
        // An empty close body means "no status code" (1005 in RFC 6455 terms).
        let code = payload.code ?? 1005
        if case .open = phase {
            sendClose(CloseFramePayload(code: payload.code), thenCloseChannel: true)
            finish(.closed(code: code, reason: payload.reason), closeChannel: false)
        } else {
            finish(.closed(code: code, reason: payload.reason))
        }
    }

    /// A protocol violation by the peer: close with `code` without waiting for an answer.
    private func violation(code: UInt16, reason: String) {
        guard case .open = phase else {
            finish(.closed(code: code, reason: reason))
            return
        }
        logger.debug("WebSocket protocol violation", metadata: ["goal.transport.reason": "\(reason)"])
        sendClose(CloseFramePayload(code: code, reason: reason), thenCloseChannel: true)
        finish(.closed(code: code, reason: reason), closeChannel: false)
    }

    /// Writes and flushes a close frame, then closes the channel once it is out if `thenCloseChannel`.
    private func sendClose(_ payload: CloseFramePayload, thenCloseChannel: Bool) {
        guard let context = frameContext else { return }
        let frame = WebSocketFrame(
            fin: true,
            opcode: .connectionClose,
            maskKey: .random(),
            data: payload.encoded(allocator: context.channel.allocator)
        )
        let done = context.writeAndFlush(NIOAny(frame))
        if thenCloseChannel {
            let channel = context.channel
            done.whenComplete { _ in channel.close(promise: nil) }
        }
    }

    private func write(opcode: WebSocketOpcode, data: ByteBuffer) {
        // RFC 6455 §5.3: every client-to-server frame is masked with a fresh random key.
        let frame = WebSocketFrame(fin: true, opcode: opcode, maskKey: .random(), data: data)
        frameContext?.write(NIOAny(frame), promise: nil)
    }
}
