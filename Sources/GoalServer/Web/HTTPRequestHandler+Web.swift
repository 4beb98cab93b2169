import Foundation
import NIOCore
import NIOHTTP1

/// The league page's side of `HTTPRequestHandler`: `GET /`, `GET /l/<league>/` (the same page naming that league,
/// `LeaguePage`) and `GET /web/<name>` answer the embedded files (`WebAssets`) with their content type, a strong
/// ETag (`If-None-Match` → 304) and the security headers; `/l/<league>` redirects to `/l/<league>/` (308), and a
/// path under `/l/` that names no possible league is 404; another method on those paths is 405. The page needs no
/// token to load: the token is asked for in the page and sent only inside the WebSocket `hello`.
extension HTTPRequestHandler {
    /// Answers `path` when it is a page asset.
    /// - Returns: false when `path` is not one (the caller answers it).
    func serveWebAsset(_ head: HTTPRequestHead, path: String, context: ChannelHandlerContext) -> Bool {
        let asset: WebAssets.Asset
        if path.hasPrefix(LeaguePage.prefix) {
            switch LeaguePage.request(path) {
            case .notFound:
                respond(
                    context,
                    head,
                    .notFound,
                    body: Array("not found: a league's page is /l/<league id>/ (a–z, 0–9 and hyphens)\n".utf8)
                )
                return true
            case .redirect(let league):
                guard allowsRead(head, path: path, context: context) else { return true }
                let query = head.uri.firstIndex(of: "?").map { String(head.uri[$0...]) } ?? ""
                let location = LeaguePage.prefix + "\(league)/" + query
                respond(
                    context,
                    head,
                    .permanentRedirect,
                    body: Array("see \(location)\n".utf8),
                    extraHeaders: [("location", location)]
                )
                return true
            case .page(let league):
                guard let page = LeaguePage.asset(league) else { return false }
                asset = page
            }
        } else {
            guard let found = WebAssets.byPath[path] else { return false }
            asset = found
        }
        guard allowsRead(head, path: path, context: context) else { return true }
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

    /// True for GET and HEAD; answers 405 for another method.
    private func allowsRead(_ head: HTTPRequestHead, path: String, context: ChannelHandlerContext) -> Bool {
        guard head.method == .GET || head.method == .HEAD else {
            respond(
                context,
                head,
                .methodNotAllowed,
                body: Array("\(path) answers GET and HEAD only\n".utf8),
                extraHeaders: [("allow", "GET, HEAD")]
            )
            return false
        }
        return true
    }
}
