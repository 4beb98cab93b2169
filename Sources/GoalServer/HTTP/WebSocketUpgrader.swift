import Crypto
import Foundation
import GoalDeflate
import GoalWire
import NIOCore
import NIOHTTP1
import NIOWebSocket

/// The RFC 6455 upgrade for `/v1/stream`: validates the request, answers 101 with `Sec-WebSocket-Accept`, and
/// installs only the inbound side (NIOWebSocket's `WebSocketFrameDecoder`) plus whatever `install` adds.
///
/// NIOWebSocket's own upgrader always adds a `WebSocketFrameEncoder`, which cannot be removed and accepts only
/// `WebSocketFrame` writes; the daemon writes pre-framed `ByteBuffer`s (one shared buffer per batch for every
/// session), so it needs an upgrade without the encoder. A request for another path, a missing key or another
/// version fails the upgrade, and the HTTP handler answers it as a plain request (404, 426). A permessage-deflate
/// offer (RFC 7692) is accepted when `permessageDeflate` is on (`PerMessageDeflate.serverResponse`), and
/// `install` is told so.
/// `Sendable`; one per listener.
struct WebSocketUpgrader: HTTPServerProtocolUpgrader, Sendable {
    /// Why a request was not upgraded.
    enum Refusal: Error {
        case wrongPath(String)
        case badKey
        case unsupportedVersion(String)
    }

    static let magicGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    let maxFrameSize: Int
    /// Whether permessage-deflate offers are accepted (`ServerConfiguration.permessageDeflate`).
    let permessageDeflate: Bool
    /// Adds the session's handlers after the decoder; runs on the channel's event loop. Its second argument says
    /// whether permessage-deflate was negotiated.
    let install: @Sendable (any Channel, Bool) throws -> Void

    let supportedProtocol = "websocket"
    // Listed headers must also appear in the request's Connection header; the key and version are checked below.
    let requiredUpgradeHeaders: [String] = []

    func buildUpgradeResponse(
        channel: any Channel,
        upgradeRequest: HTTPRequestHead,
        initialResponseHeaders: HTTPHeaders
    ) -> EventLoopFuture<HTTPHeaders> {
        let path = upgradeRequest.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? upgradeRequest.uri
        guard path == WireProtocol.path else {
            return channel.eventLoop.makeFailedFuture(Refusal.wrongPath(path))
        }
        let keys = upgradeRequest.headers["sec-websocket-key"]
        let versions = upgradeRequest.headers["sec-websocket-version"]
        guard keys.count == 1, let key = keys.first, Data(base64Encoded: key)?.count == 16 else {
            return channel.eventLoop.makeFailedFuture(Refusal.badKey)
        }
        guard versions == ["13"] else {
            return channel.eventLoop.makeFailedFuture(Refusal.unsupportedVersion(versions.joined(separator: ",")))
        }
        var headers = initialResponseHeaders
        headers.replaceOrAdd(name: "Upgrade", value: "websocket")
        headers.replaceOrAdd(name: "Connection", value: "upgrade")
        headers.add(name: "Sec-WebSocket-Accept", value: Self.acceptValue(forKey: key))
        if let deflate = deflateResponse(to: upgradeRequest) {
            headers.add(name: "Sec-WebSocket-Extensions", value: deflate)
        }
        return channel.eventLoop.makeSucceededFuture(headers)
    }

    func upgrade(context: ChannelHandlerContext, upgradeRequest: HTTPRequestHead) -> EventLoopFuture<Void> {
        let channel = context.channel
        let maxFrameSize = self.maxFrameSize
        let install = self.install
        let deflate = deflateResponse(to: upgradeRequest) != nil
        return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(
                ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: maxFrameSize))
            )
            try install(channel, deflate)
        }
    }

    /// The `Sec-WebSocket-Extensions` answer to the request's offers, or nil when none is accepted.
    private func deflateResponse(to request: HTTPRequestHead) -> String? {
        guard permessageDeflate else { return nil }
        return PerMessageDeflate.serverResponse(toOffers: request.headers["sec-websocket-extensions"])
    }

    /// base64(SHA-1(key ‖ GUID)) as RFC 6455 §4.2.2 defines it.
    static func acceptValue(forKey key: String) -> String {
        Data(Insecure.SHA1.hash(data: Data((key + magicGUID).utf8))).base64EncodedString()
    }
}
