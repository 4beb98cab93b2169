import Foundation
import GoalModel
import GoalTestSlots
import GoalTestSupport
import GoalTransport
import NIOHTTP1
import Testing

@testable import GoalServer

/// A league's page at `/l/<league>/` (no browser needed): the page of `/` naming the league (meta, title,
/// heading) for app.js to put in the hello, with its own ETag and the same headers; `/l/<league>` redirects, and
/// a path that cannot name a league is 404. The page does not reveal whether the league exists.
@Suite("league page: one league's page at /l/<league>/", .slotted)
struct WebLeaguePageTests {
    @Test("/l/<league>/ (and ?tv) is the page of / with the league in its meta, title and heading")
    func pageNamesTheLeague() async throws {
        try await withTestDaemon { daemon in
            let connector = try daemon.connector()
            let root = try await TestHTTPSClient.get(connector, path: "/")
            let rootHTML = root.bodyText
            #expect(!rootHTML.contains("goald-league"), "/ names no league: the hello asks for the default one")
            for path in ["/l/office-berlin/", "/l/office-berlin/?tv"] {
                let page = try await TestHTTPSClient.get(connector, path: path)
                #expect(page.status == 200, "\(path)")
                #expect(page.header("content-type") == "text/html; charset=utf-8")
                let html = page.bodyText
                #expect(html.contains(#"<meta name="goald-league" content="office-berlin">"#), "\(path)")
                #expect(html.contains("<title>office-berlin · goald league</title>"))
                #expect(html.contains("<h1>League office-berlin</h1>"))
                #expect(html.contains(#"<script type="module" src="/web/app.js"></script>"#), "the same app")
                #expect(page.header("content-security-policy") == root.header("content-security-policy"))
            }
            let other = try await TestHTTPSClient.get(connector, path: "/l/home/")
            let berlin = try await TestHTTPSClient.get(connector, path: "/l/office-berlin/")
            let etag = try #require(berlin.header("etag"))
            #expect(etag != other.header("etag") && etag != root.header("etag"), "one validator per league")
            let cached = try await TestHTTPSClient.get(
                connector,
                path: "/l/office-berlin/",
                headers: [("If-None-Match", etag)]
            )
            #expect(cached.status == 304)
        }
    }

    @Test("app.js sends the page's league in the hello; stream.js only when one is named")
    func scriptsUseTheLeague() {
        let app = WebAssets.appJS
        let stream = WebAssets.streamJS
        #expect(app.contains(#"meta[name="goald-league"]"#))
        #expect(app.contains("}, leagueId);"), "the Stream gets the page's league")
        #expect(stream.contains("if (this.leagueId) hello.league = this.leagueId;"))
    }

    @Test("/l/<league> redirects to /l/<league>/ keeping the query; a path that names no league is 404")
    func redirectsAndRefusals() async throws {
        try await withTestDaemon { daemon in
            let connector = try daemon.connector()
            let redirect = try await TestHTTPSClient.get(connector, path: "/l/office?tv")
            #expect(redirect.status == 308)
            #expect(redirect.header("location") == "/l/office/?tv")
            for path in ["/l/", "/l/Office/", "/l/-x/", "/l/a_b/", "/l/office/extra/", "/l/office/web/app.js"] {
                #expect(try await TestHTTPSClient.get(connector, path: path).status == 404, "\(path)")
            }
            let post = try await TestHTTPSClient.request(connector, method: .POST, path: "/l/office/", body: [])
            #expect(post.status == 405)
            #expect(LeaguePage.request("/l/office/") == .page(try LeagueSlug(validating: "office")))
        }
    }
}
