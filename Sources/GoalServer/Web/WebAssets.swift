import Crypto
import GoalModel

/// The league page (issue 19): the files of web/ embedded in the binary (`WebAssets+*.swift`, written by
/// `.ci/web-assets`), served at `/` (index.html) and `/web/<name>` with a strong ETag each. Nothing is read from
/// disk at run time and nothing comes from another origin.
///
/// Stateless; the table is built once, on first use, and is immutable (`Sendable`).
enum WebAssets {
    /// One servable file.
    struct Asset: Sendable {
        /// The file's name in web/.
        let name: String
        let contentType: String
        let body: [UInt8]
        /// `"<first 32 hex digits of SHA-256 of the body>"`, quoted (a strong validator).
        let etag: String
    }

    /// The URL prefix of every asset but the page itself.
    static let prefix = "/web/"

    /// Every asset by the path that serves it: `/` for index.html, `/web/<name>` for the others.
    static let byPath: [String: Asset] = {
        var table: [String: Asset] = [:]
        for file in files {
            let body = Array(file.text.utf8)
            // GoalModel's Digest is a SHA-256 with its lowercase hex; 32 bytes always make one.
            let hex = GoalModel.Digest(bytes: Array(SHA256.hash(data: body)))!.hex
            let asset = Asset(
                name: file.name,
                contentType: file.contentType,
                body: body,
                etag: "\"" + hex.prefix(32) + "\""
            )
            table[file.name == "index.html" ? "/" : prefix + file.name] = asset
        }
        return table
    }()

    /// The response headers of every asset: what a security review asks for. The page loads only its own scripts,
    /// styles and images, connects only to its own origin, is never framed, sends no referrer, and asks for no
    /// device permission. No inline script or style exists, so none is allowed. HSTS is not sent: goald often runs
    /// on `localhost` with its own CA, and HSTS would bind every port of that host name to HTTPS in the browser; a
    /// deployment behind a name of its own may add it at its proxy.
    /// - Parameter host: The request's `Host` header, for `contentSecurityPolicy(host:)`.
    static func securityHeaders(host: String?) -> [(String, String)] {
        [
            ("content-security-policy", contentSecurityPolicy(host: host)),
            ("x-content-type-options", "nosniff"),
            ("x-frame-options", "DENY"),
            ("referrer-policy", "no-referrer"),
            ("permissions-policy", "camera=(), microphone=(), geolocation=(), payment=(), usb=()"),
            ("cross-origin-opener-policy", "same-origin"),
            ("cross-origin-resource-policy", "same-origin"),
            // Revalidate every time (a 304 when unchanged), so a new goald's page is never mixed with an old cache.
            ("cache-control", "no-cache"),
        ]
    }

    /// The page's CSP. `connect-src` names `wss://<host>` besides `'self'`: CSP Level 3 lets `'self'` match the
    /// same origin's `wss:`, but older browsers (Safari before 15.4 among them) do not. The host is the browser's
    /// own `Host` header, used only when it is a plain host name, IPv4 or bracketed IPv6 address with an optional
    /// port (nothing that could add a directive); otherwise `'self'` alone.
    static func contentSecurityPolicy(host: String?) -> String {
        var connect = "'self'"
        if let host, isPlainHost(host) { connect += " wss://" + host }
        return "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src \(connect); "
            + "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    }

    /// Letters, digits, `.`, `-`, `:`, `[` and `]` only, at most 255 bytes, not empty.
    static func isPlainHost(_ host: String) -> Bool {
        !host.isEmpty && host.utf8.count <= 255
            && host.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII
                    && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                        || ".-:[]".unicodeScalars.contains(scalar))
            }
    }
}
