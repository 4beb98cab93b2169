import Foundation
import GoalTestSlots
import GoalTestSupport
import GoalTransport
import NIOHTTP1
import Testing

@testable import GoalServer

/// The league page as goald serves it (no browser needed): every file of web/ is embedded byte for byte (the drift
/// check: regenerate with `.ci/web-assets`), with its content type, a strong ETag that answers 304, the security
/// headers, and 405 for another method. The page itself is tested in a real browser by BrowserTests.
@Suite("league page: embedded copy, headers, caching", .slotted)
struct WebPageTests {
    static let webDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("web").path

    /// Every file of web/ with the path goald serves it at.
    static func files() throws -> [(path: String, name: String, contents: [UInt8])] {
        try FileManager.default.contentsOfDirectory(atPath: webDirectory).sorted().map { name in
            let data = try Data(contentsOf: URL(fileURLWithPath: webDirectory + "/" + name))
            return (name == "index.html" ? "/" : "/web/" + name, name, Array(data))
        }
    }

    @Test("every file of web/ is served byte for byte with its content type (else run .ci/web-assets)")
    func servedCopyIsWebDirectory() async throws {
        let files = try Self.files()
        #expect(files.count >= 5)
        let types = ["html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8"]
            .merging(["css": "text/css; charset=utf-8", "svg": "image/svg+xml"]) { first, _ in first }
        try await withTestDaemon { daemon in
            let connector = try daemon.connector()
            for file in files {
                let response = try await TestHTTPSClient.get(connector, path: file.path)
                #expect(response.status == 200, "\(file.path)")
                #expect(
                    response.body == file.contents,
                    "\(file.name) differs from the embedded copy: run .ci/web-assets"
                )
                let suffix = String(file.name.split(separator: ".").last ?? "")
                #expect(response.header("content-type") == types[suffix], "\(file.name)")
            }
            // The tv mode is the same page; a file that is not in web/ is 404.
            #expect(
                try await TestHTTPSClient.get(connector, path: "/?tv").body == files.first { $0.path == "/" }?.contents
            )
            #expect(try await TestHTTPSClient.get(connector, path: "/web/nope.js").status == 404)
            #expect(try await TestHTTPSClient.get(connector, path: "/web/").status == 404)
        }
    }

    @Test(
        "CSP (no inline code, own origin only, no framing), nosniff, no referrer, permissions, no caching without revalidation"
    )
    func securityHeaders() async throws {
        try await withTestDaemon { daemon in
            let connector = try daemon.connector()
            for path in ["/", "/web/app.js", "/web/style.css"] {
                let response = try await TestHTTPSClient.get(connector, path: path)
                let csp = try #require(response.header("content-security-policy"), "\(path)")
                let directives = Set(csp.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) })
                for wanted in [
                    "default-src 'none'", "script-src 'self'", "style-src 'self'",
                    "connect-src 'self' wss://\(connector.endpoint.hostHeader)",
                    "frame-ancestors 'none'", "base-uri 'none'", "form-action 'self'",
                ] {
                    #expect(directives.contains(wanted), "\(path): \(csp)")
                }
                #expect(!csp.contains("unsafe-inline") && !csp.contains("unsafe-eval") && !csp.contains("*"))
                #expect(response.header("x-content-type-options") == "nosniff")
                #expect(response.header("x-frame-options") == "DENY")
                #expect(response.header("referrer-policy") == "no-referrer")
                #expect(response.header("permissions-policy")?.contains("camera=()") == true)
                #expect(response.header("cross-origin-opener-policy") == "same-origin")
                #expect(response.header("cache-control") == "no-cache")
            }
        }
    }

    @Test("connect-src names wss:// of the Host header only when it is a plain host[:port]; else 'self' alone")
    func connectSource() {
        for host in ["localhost:7443", "127.0.0.1:7443", "[::1]:7443", "league.example.org"] {
            #expect(
                WebAssets.contentSecurityPolicy(host: host).contains("connect-src 'self' wss://\(host); "),
                "\(host)"
            )
        }
        for host in [
            nil, "", "evil; script-src *", "a b", "x'y", "h\u{0}", "é.example", String(repeating: "a", count: 256),
        ] {
            let policy = WebAssets.contentSecurityPolicy(host: host)
            #expect(policy.contains("connect-src 'self'; "), "\(String(describing: host))")
            #expect(policy.split(separator: ";").count == 8, "\(String(describing: host))")
        }
    }

    @Test("the page has no inline script, style or event handler, and loads nothing from another origin")
    func noInlineCode() throws {
        for file in try Self.files() where file.name.hasSuffix(".html") {
            let html = String(decoding: file.contents, as: UTF8.self)
            #expect(!html.contains("<script>") && !html.contains("<style"), "\(file.name)")
            #expect(html.range(of: #"\son[a-z]+="#, options: .regularExpression) == nil, "\(file.name)")
            #expect(html.range(of: #"style=""#) == nil, "\(file.name)")
            #expect(!html.contains("http://") && !html.contains("https://") && !html.contains("//cdn"))
        }
        for file in try Self.files() where file.name.hasSuffix(".js") {
            let script = String(decoding: file.contents, as: UTF8.self)
            #expect(!script.contains("innerHTML") && !script.contains("eval("), "\(file.name)")
            // The token travels in the hello only: never in a URL.
            #expect(!script.contains("?token") && !script.contains("&token"), "\(file.name)")
        }
    }

    @Test("the plaintext metrics listener does not serve the page (it is for /metrics on loopback only)")
    func notOnMetricsListener() async throws {
        let loopbackMetrics: (inout ServerConfiguration) -> Void = {
            $0.metricsListener = .init(host: "127.0.0.1", port: 0)
        }
        try await withTestDaemon(configure: loopbackMetrics) { daemon in
            let port = try #require(try await daemon.daemon.listeningAddresses().metricsPort)
            for path in ["/", "/web/app.js"] {
                let response = try await PlaintextProbe.send(
                    Array("GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8),
                    port: port
                )
                #expect(String(decoding: response, as: UTF8.self).hasPrefix("HTTP/1.1 404"), "\(path)")
            }
        }
    }

    @Test("ETag: If-None-Match answers 304 with the headers and no body; another method is 405")
    func caching() async throws {
        try await withTestDaemon { daemon in
            let connector = try daemon.connector()
            let first = try await TestHTTPSClient.get(connector, path: "/web/app.js")
            let etag = try #require(first.header("etag"))
            #expect(etag.hasPrefix("\"") && etag.hasSuffix("\"") && etag.count == 34)
            let again = try await TestHTTPSClient.get(
                connector,
                path: "/web/app.js",
                headers: [("If-None-Match", etag)]
            )
            #expect(again.status == 304)
            #expect(again.body.isEmpty)
            #expect(again.header("etag") == etag)
            #expect(again.header("content-security-policy") != nil)
            let stale = try await TestHTTPSClient.get(
                connector,
                path: "/web/app.js",
                headers: [("If-None-Match", "\"0\"")]
            )
            #expect(stale.status == 200)
            #expect(try await TestHTTPSClient.get(connector, path: "/").header("etag") != etag)
            let post = try await TestHTTPSClient.request(connector, method: .POST, path: "/", body: Array("{}".utf8))
            #expect(post.status == 405)
            #expect(post.header("allow") == "GET, HEAD")
        }
    }
}
