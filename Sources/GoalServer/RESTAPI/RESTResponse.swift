import Foundation
import GoalWire
import NIOHTTP1

/// One answer of the HTTP API: status, extra headers (ETag, Allow, Retry-After…) and a JSON body (empty for 304).
/// Value type, `Sendable`.
struct RESTResponse: Sendable {
    var status: HTTPResponseStatus
    var headers: [(String, String)] = []
    var body: [UInt8]

    /// A success or 412 body with the entity's `ETag` (its last revision, quoted).
    static func entity(_ status: HTTPResponseStatus, _ body: [UInt8], revision: UInt64) -> RESTResponse {
        RESTResponse(status: status, headers: [("etag", RESTETag.quoted(revision))], body: body)
    }

    /// Goalbase's error body with goald's `code` beside it.
    static func error(_ status: HTTPResponseStatus, code: RESTErrorCode, _ message: String) -> RESTResponse {
        RESTResponse(status: status, body: RESTEncoding.error(code: code, message: message))
    }
}

/// ETags of the HTTP API: a revision in double quotes (strong). Stateless.
enum RESTETag {
    static func quoted(_ revision: UInt64) -> String { "\"\(revision)\"" }

    /// The revisions an `If-Match` / `If-None-Match` value names; `[]` for `*` is `nil`-distinguished by the caller.
    /// Weak tags (`W/"…"`) count by their revision; anything unreadable names no revision.
    static func revisions(_ header: String) -> [UInt64] {
        header.split(separator: ",").compactMap { part in
            var text = part.trimmingCharacters(in: .whitespaces)[...]
            if text.hasPrefix("W/") { text = text.dropFirst(2) }
            if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 { text = text.dropFirst().dropLast() }
            return UInt64(text)
        }
    }
}
