import Foundation
import GoalModel
import GoalTestSlots
import GoalTestSupport
import NIOHTTP1
import Testing

/// One league's page (`/l/<league>/`) in a real headless Chromium over WebDriver against a live goald: the page's
/// hello names the league, so it shows that league's data and not the default league's, its title and heading name
/// it, and a token without a role there is told so. Skips loudly without Chromium (see BrowserTests); its name
/// matches CI's browser stage (`--filter BrowserTests`).
@Suite("BrowserTests: one league's page in Chromium", .serialized, .slotted)
struct LeaguePageBrowserTests {
    /// `POST path` with `token` and a JSON body; the answer must be 201.
    static func post(_ daemon: TestDaemon, _ token: String, _ path: String, _ json: String) async throws {
        let response = try await TestHTTPSClient.request(
            try daemon.connector(),
            method: .POST,
            path: path,
            headers: [(name: "Authorization", value: "Bearer \(token)")],
            body: Array(json.utf8)
        )
        try #require(response.status == 201, "\(path): \(response.status) \(response.bodyText)")
    }

    @Test("/l/alpha/ follows league alpha (not the default league), names it, and explains league_forbidden")
    func pageFollowsItsLeague() async throws {
        try await withTestDaemon { daemon in
            try await Self.post(daemon, daemon.tokens.admin, "/api/v1/leagues", #"{"id":"alpha","name":"Alpha"}"#)
            for name in ["Ann", "Ben"] {
                try await Self.post(
                    daemon,
                    daemon.tokens.editor,
                    "/api/v1/leagues/alpha/players",
                    #"{"name":"\#(name)"}"#
                )
            }
            try await Self.post(daemon, daemon.tokens.editor, "/api/v1/players", #"{"name":"Dora"}"#)
            let url = "https://localhost:\(daemon.port)/l/alpha/"
            try await withBrowsers("leaguePage") { run in
                let page = try await run.open("desktop")
                try await page.session.open(url)
                try await page.waitFor("the token form") { $0.loginShown }
                try await page.signIn(daemon.tokens.viewer)
                let shown = try await page.waitFor("league alpha, live") {
                    $0.phase == "live" && $0.rankings.count == 2
                }
                await run.screenshot(page, "alpha")
                #expect(shown.rankings.map { $0[1] } == ["Ann", "Ben"], "alpha's players, not the default league's")
                #expect(shown.revision == 2, "alpha's own revisions")
                let named = try await page.session.run(
                    "return document.title + ' | ' + document.querySelector('h1').textContent"
                )
                #expect(named == "alpha · goald league | League alpha")
                let console = try await page.session.severeConsoleMessages()
                #expect(console == [], "no script error, no CSP violation: \(console)")

                // A token confined to another league: the hello is refused (4405) and the page says why.
                let other = try daemon.createToken("olga", leagues: [LeagueSlug.default: .viewer])
                try await page.session.run("localStorage.clear(); location.reload();")
                try await page.waitFor("the token form again") { $0.loginShown }
                try await page.signIn(other)
                let refused = try await page.waitFor("the refusal in alpha") {
                    $0.phase == "stopped" && !$0.alert.isEmpty
                }
                #expect(refused.alert == "this token is not allowed in league alpha; enter another", "\(refused)")
                #expect(refused.loginShown)
            }
        }
    }
}
