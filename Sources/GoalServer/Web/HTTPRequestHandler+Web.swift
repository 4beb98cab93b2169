import Foundation
import NIOCore
import NIOHTTP1

/// The league page's side of `HTTPRequestHandler`: `GET /` and `GET /web/<name>` answer the embedded files
/// (`WebAssets`) with their content type, a strong ETag (`If-None-Match` → 304) and the security headers; another
/// method on those paths is 405. The page needs no token to load: the token is asked for in the page and sent
/// only inside the WebSocket `hello`.
extension HTTPRequestHandler {
    /// Answers `path` when it is a page asset.
    /// - Returns: false when `path` is not one (the caller answers it).
    func serveWebAsset(_ head: HTTPRequestHead, path: String, context: ChannelHandlerContext) -> Bool {
        guard let asset = WebAssets.byPath[path] else { return false }
        guard head.method == .GET || head.method == .HEAD else {
            respond(
                context,
                head,
                .methodNotAllowed,
                body: Array("\(path) answers GET and HEAD only\n".utf8),
                extraHeaders: [("allow", "GET, HEAD")]
            )
            return true
        }
        let headers = [("etag", asset.etag)] + WebAssets.securityHeaders(host: head.headers.first(name: "host"))
        if let match = head.headers.first(name: "if-none-match"),
            match.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == asset.etag })
        {
            respond(context, head, .notModified, contentType: asset.contentType, body: [], extraHeaders: headers)
            return true
        }
        respond(context, head, .ok, contentType: asset.contentType, body: asset.body, extraHeaders: headers)
        return true
    }
}
