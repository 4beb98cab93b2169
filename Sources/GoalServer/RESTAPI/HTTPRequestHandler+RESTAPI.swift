import GoalWire
import NIOCore
import NIOHTTP1

/// The HTTP API's side of `HTTPRequestHandler`: reads a bounded body under a deadline, answers through `RESTAPI`,
/// and keeps an idle keep-alive connection open for a while.
///
/// - A body larger than `limits.maxInboundMessageBytes` (64 KiB, as a WebSocket message) is 413 and the
///   connection closes (announced by `Content-Length` or found while reading; nothing more is read).
/// - A request whose body has not fully arrived `limits.handshakeTimeoutMilliseconds` (10 s) after its head is 408
///   and the connection closes (slow-loris); other connections are untouched (each has its own timer).
/// - The first API request cancels the connection's handshake deadline; between requests the connection may idle
///   `limits.idleTimeoutMilliseconds` (40 s) before it is closed. Pipelined requests are answered in order
///   (NIO's pipeline handler holds the next request until the previous response ends).
extension HTTPRequestHandler {
    /// The HTTP API is served on the main (TLS) listener only, never on the plaintext metrics listener.
    var servesAPI: Bool {
        if case .adminToken = metricsAccess { return true }
        return false
    }

    func beginAPIRequest(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        handshakeDeadline?.cancel()
        handshakeDeadline = nil
        apiTimer?.cancel()
        if let length = head.headers.first(name: "content-length").flatMap(Int.init),
            length > collaborators.limits.maxInboundMessageBytes
        {
            refuseTooLarge(head, context)
            return
        }
        apiBody = []
        let channel = context.channel
        let deadline = TimeAmount.milliseconds(Int64(collaborators.limits.handshakeTimeoutMilliseconds))
        apiTimer = context.eventLoop.assumeIsolated().scheduleTask(in: deadline) { [weak self] in
            guard let self, self.apiBody != nil else { return }
            self.apiBody = nil
            guard channel.isActive else { return }
            self.refuseAPIRequest(head, .requestTimeout, "the request body did not arrive in time", context)
        }
    }

    /// 413 for a body past `maxInboundMessageBytes`, declared up front or found while it arrives.
    private func refuseTooLarge(_ head: HTTPRequestHead, _ context: ChannelHandlerContext) {
        refuseAPIRequest(
            head,
            .payloadTooLarge,
            "the body is larger than \(collaborators.limits.maxInboundMessageBytes) bytes",
            context
        )
    }

    func appendAPIBody(_ chunk: ByteBuffer, _ head: HTTPRequestHead, context: ChannelHandlerContext) {
        guard var body = apiBody else { return }
        guard body.count + chunk.readableBytes <= collaborators.limits.maxInboundMessageBytes else {
            apiBody = nil
            refuseTooLarge(head, context)
            return
        }
        apiBody = nil  // keeps `body` uniquely referenced while it grows
        body.append(contentsOf: chunk.readableBytesView)
        apiBody = body
    }

    func finishAPIRequest(_ head: HTTPRequestHead, body: [UInt8], context: ChannelHandlerContext) {
        apiTimer?.cancel()
        apiTimer = nil
        let path = head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? head.uri
        RESTAPI(collaborators: collaborators.rest, eventLoop: context.eventLoop).respond(
            to: head,
            path: path,
            body: body
        )
        .assumeIsolated().whenSuccess { response in
            guard context.channel.isActive else { return }
            self.respond(
                context,
                head,
                response.status,
                contentType: "application/json",
                body: response.body,
                extraHeaders: response.headers
            )
            self.scheduleIdleClose(context)
        }
    }

    /// Closes a keep-alive connection that sends no next request within the idle timeout.
    private func scheduleIdleClose(_ context: ChannelHandlerContext) {
        let channel = context.channel
        let idle = TimeAmount.milliseconds(Int64(collaborators.limits.idleTimeoutMilliseconds))
        apiTimer = context.eventLoop.assumeIsolated().scheduleTask(in: idle) { channel.close(promise: nil) }
    }

    /// 408 or 413, then close: the rest of the request is never read.
    private func refuseAPIRequest(
        _ head: HTTPRequestHead,
        _ status: HTTPResponseStatus,
        _ message: String,
        _ context: ChannelHandlerContext
    ) {
        closing = true
        apiTimer?.cancel()
        apiTimer = nil
        let code: RESTErrorCode = status == .payloadTooLarge ? .tooLarge : .timeout
        let response = RESTResponse.error(status, code: code, message)
        respond(context, head, status, contentType: "application/json", body: response.body, close: true)
    }
}
