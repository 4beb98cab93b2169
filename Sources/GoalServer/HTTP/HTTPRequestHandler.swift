import GoalModel
import GoalStore
import GoalWire
import NIOCore
import NIOHTTP1
import NIOPosix

/// Answers the plain HTTP requests on the daemon's port (HEAD as GET without the body): `GET /healthz`, `GET /metrics` (admin token in
/// `Authorization: Bearer …`, or any caller on the loopback-only metrics listener), the league page (`GET /`,
/// `/l/<league>/` and `/web/…`, `Web/HTTPRequestHandler+Web.swift`), and 404 for anything else.
/// WebSocket upgrades at `/v1/stream` never reach it: the upgrader takes them first. Requests under `/api/v1/`
/// go to the HTTP API (`RESTAPI/`, `HTTPRequestHandler+RESTAPI.swift`).
///
/// Threading: confined to its channel's event loop. Lifetime: one per connection, removed on upgrade.
final class HTTPRequestHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// Who may read `/metrics` on this listener.
    enum MetricsAccess {
        case adminToken
        case anyone
    }

    /// What the handler uses of the rest of the server: the health report, the metrics it renders, the tokens an
    /// admin's `/metrics` request is checked against (looked up on `threadPool`), the limits of an HTTP API request
    /// and the HTTP API's own collaborators. Built once by `DaemonComposition`, shared by every connection.
    ///
    /// Threading: every member is `Sendable`. Lifetime: the daemon's.
    struct Collaborators: Sendable {
        let health: HealthReport
        let metrics: ServerMetrics
        let tokens: TokenDirectory
        let threadPool: NIOThreadPool
        /// `maxInboundMessageBytes` (an API body's bound), `handshakeTimeoutMilliseconds` (its deadline) and
        /// `idleTimeoutMilliseconds` (a keep-alive connection's idle time).
        let limits: ServerLimits
        let rest: RESTAPI.Collaborators
    }

    let metricsAccess: MetricsAccess
    let collaborators: Collaborators
    private var head: HTTPRequestHead?
    // The HTTP API's request state (`HTTPRequestHandler+RESTAPI.swift`).
    /// The connection's handshake deadline (main listener); the first HTTP API request takes the connection over.
    var handshakeDeadline: Scheduled<Void>?
    /// The body of the HTTP API request being read; nil when none is.
    var apiBody: [UInt8]?
    /// The body deadline while reading an API request; the idle deadline between API requests.
    var apiTimer: Scheduled<Void>?
    /// Set once a 408/413 went out: the connection is closing and reads nothing more.
    var closing = false

    init(_ collaborators: Collaborators, metricsAccess: MetricsAccess, handshakeDeadline: Scheduled<Void>? = nil) {
        self.collaborators = collaborators
        self.metricsAccess = metricsAccess
        self.handshakeDeadline = handshakeDeadline
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            if servesAPI, head.uri.hasPrefix(RESTRoute.prefix) { beginAPIRequest(head, context: context) }
        case .body(let chunk):
            if apiBody != nil, let head { appendAPIBody(chunk, head, context: context) }
        case .end:
            guard let head else { return }
            self.head = nil
            if let body = apiBody {
                apiBody = nil
                finishAPIRequest(head, body: body, context: context)
                return
            }
            route(head, context: context)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        apiTimer?.cancel()
    }

    private func route(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        let path = head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? head.uri
        // The league page is served on the main (TLS) listener only, like the HTTP API.
        if servesAPI, serveWebAsset(head, path: path, context: context) { return }
        switch (head.method, path) {
        case (.GET, "/healthz"), (.HEAD, "/healthz"):
            respond(context, head, .ok, contentType: "application/json", body: collaborators.health.json())
        case (.GET, "/metrics"), (.HEAD, "/metrics"):
            serveMetrics(head, context: context)
        case (_, WireProtocol.path):
            respond(
                context,
                head,
                .upgradeRequired,
                body: text(
                    "/v1/stream is a WebSocket endpoint: connect with wss:// and the Upgrade: websocket header\n"
                )
            )
        default:
            respond(
                context,
                head,
                .notFound,
                body: text(
                    "not found: goald serves GET / and /l/<league>/ (the league page), wss://…/v1/stream, /api/v1/, "
                        + "GET /healthz "
                        + "and GET /metrics\n"
                )
            )
        }
    }

    private func serveMetrics(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        if case .anyone = metricsAccess {
            respond(context, head, .ok, contentType: "text/plain; version=0.0.4", body: collaborators.metrics.render())
            return
        }
        guard let authorization = head.headers.first(name: "authorization"),
            authorization.lowercased().hasPrefix("bearer ")
        else {
            respond(
                context,
                head,
                .unauthorized,
                body: text("/metrics needs an admin token: Authorization: Bearer <token>\n")
            )
            return
        }
        let hash = TokenSecret.hash(presented: String(authorization.dropFirst("bearer ".count)))
        let tokens = collaborators.tokens
        collaborators.threadPool.runIfActive(eventLoop: context.eventLoop) { try tokens.lookup(hash) }
            .assumeIsolated().whenComplete { result in
                guard case .success(let token?) = result, !token.isRevoked else {
                    self.respond(context, head, .unauthorized, body: self.text("unknown or revoked token\n"))
                    return
                }
                guard token.role == .admin else {
                    self.respond(
                        context,
                        head,
                        .forbidden,
                        body: self.text("/metrics needs an admin token; \(token.name) is \(token.role.rawValue)\n")
                    )
                    return
                }
                self.respond(
                    context,
                    head,
                    .ok,
                    contentType: "text/plain; version=0.0.4",
                    body: self.collaborators.metrics.render()
                )
            }
    }

    private func text(_ string: String) -> [UInt8] { Array(string.utf8) }

    /// Writes a whole response; `extraHeaders` and `close` serve the HTTP API (a 304 carries no body).
    func respond(
        _ context: ChannelHandlerContext,
        _ request: HTTPRequestHead,
        _ status: HTTPResponseStatus,
        contentType: String = "text/plain; charset=utf-8",
        body: [UInt8],
        extraHeaders: [(String, String)] = [],
        close: Bool = false
    ) {
        var headers = HTTPHeaders()
        headers.add(name: "content-type", value: contentType)
        // 304 and 204 carry no body and no Content-Length (RFC 9110 §8.6).
        let bodiless = status == .notModified || status == .noContent
        if !bodiless { headers.add(name: "content-length", value: String(body.count)) }
        headers.add(contentsOf: extraHeaders)
        let keepAlive = request.isKeepAlive && !close
        if !keepAlive { headers.add(name: "connection", value: "close") }
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: request.version, status: status, headers: headers))),
            promise: nil
        )
        // HEAD gets GET's headers, Content-Length included, and no body (RFC 9110 §9.3.2).
        if !bodiless, request.method != .HEAD {
            var buffer = context.channel.allocator.buffer(capacity: body.count)
            buffer.writeBytes(body)
            context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        }
        let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if !keepAlive {
            let channel = context.channel
            done.whenComplete { _ in channel.close(promise: nil) }
        }
    }
}
