import GoalDeflate
import NIOCore
import NIOHTTP1

/// The HTTP stage of a connection: sends the upgrade request once TCP is up and reports what the server answered
/// when it did not upgrade. Removed when the upgrade succeeds.
///
/// Threading: a `ChannelHandler`, confined to its channel's event loop, like the core it reports to.
final class UpgradeResponseHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    static let name = "goal.transport.upgrade-response"

    private let core: ConnectionCore

    init(core: ConnectionCore) {
        self.core = core
    }

    func channelActive(context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: core.endpoint.hostHeader)
        headers.add(name: "Content-Length", value: "0")
        if core.configuration.permessageDeflate {
            headers.add(name: "Sec-WebSocket-Extensions", value: PerMessageDeflate.clientOffer)
        }
        for header in core.configuration.extraHeaders {
            headers.add(name: header.name, value: header.value)
        }
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: core.endpoint.path, headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // The upgrade handler passes the response on only when it did not upgrade.
        if case .head(let head) = unwrapInboundIn(data), core.isCurrent(context.channel) {
            core.upgradeRefused(head)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard core.isCurrent(context.channel) else { return }
        core.openingError(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if core.isCurrent(context.channel) {
            core.channelInactive()
        }
        context.fireChannelInactive()
    }
}
