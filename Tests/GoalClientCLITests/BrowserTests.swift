import Foundation
import GoalStore
import GoalTestSlots
import GoalTestSupport
import Testing

/// The league page (`GET /`, web/) in a real headless Chromium driven over W3C WebDriver, against live goald
/// daemons (real TLS on port 0) and the real `goal-client`: the page loads, shows the league, shows a change
/// `goal-client` makes, survives a goald restart by resuming, and an editor's + changes the score in a second
/// browser; `?tv` and a phone's viewport lay out as promised. Skips loudly without Chromium and chromedriver;
/// fails then with GOALD_REQUIRE_CHROMIUM=1 (CI's browser stage:
/// `GOALD_REQUIRE_CHROMIUM=1 swift test --skip-build --filter BrowserTests`). One Chromium at a time per test (two
/// in the two-browser test); serialized, so the suite adds at most two browsers to a parallel run. On a failure,
/// a screenshot of each state is written and its directory printed.
@Suite("BrowserTests: the league page in Chromium", .serialized, .slotted)
struct BrowserTests {
    /// Alice, Bob, Carol; Alice 2 : 1 Bob (r4). Returns the match's id.
    static func seed(_ client: ClientEnvironment) async throws -> String {
        for name in ["Alice", "Bob", "Carol"] {
            let added = try await client.run(["players", "add", name])
            try #require(added.status == 0, "\(added.stderr)")
        }
        let added = try await client.run([
            "matches", "add", "--home", "Alice", "--away", "Bob", "--score", "2:1", "--json",
        ])
        try #require(added.status == 0, "\(added.stderr)")
        return try #require(try jsonObject(added.stdout)["match_id"] as? String)
    }

    /// A match list's date: "HH:MM" (today) or "YYYY-MM-DD".
    static func isDate(_ text: String) -> Bool {
        text.wholeMatch(of: /\d\d:\d\d|\d{4}-\d\d-\d\d/) != nil
    }

    static func url(_ daemon: TestDaemon, _ query: String = "") -> String {
        "https://localhost:\(daemon.port)/\(query)"
    }

    @Test("loads, shows the league, shows goal-client's change, resumes after a goald restart, sends a + made offline")
    func liveLeagueAcrossRestart() async throws {
        let directory = try TestCertificates.makeTemporaryDirectory(prefix: "goald-browser-db")
        defer { try? FileManager.default.removeItem(atPath: directory) }  // a leftover temp dir harms no one
        let path = directory + "/league.sqlite"
        // A reserved port: the page reconnects to this address, and no other test may listen on it meanwhile.
        let reservation = try PortReservation()
        defer { withExtendedLifetime(reservation) {} }
        var daemon = try await TestDaemon.start(databaseAt: path, on: reservation)
        do {
            try await withBrowsers("liveLeagueAcrossRestart") { run in
                let client = try ClientEnvironment.make(daemon, token: daemon.tokens.editor)
                let matchID = try await Self.seed(client)
                let short = String(matchID.prefix(8))

                let page = try await run.open("desktop")
                try await page.session.open(Self.url(daemon))
                try await page.waitFor("the token form") { $0.loginShown }
                await run.screenshot(page, "token-form")
                try await page.signIn(daemon.tokens.editor)
                let shown = try await page.waitFor("the league, live") {
                    $0.phase == "live" && $0.revision == 4 && $0.matches.count == 1
                }
                await run.screenshot(page, "league")
                #expect(
                    shown.rankings == [
                        ["1", "Alice", "10.00", "1", "1", "0", "0"],
                        ["2", "Bob", "0.00", "1", "0", "0", "1"],
                        ["3", "Carol", "0.00", "0", "0", "0", "0"],
                    ]
                )
                #expect(shown.matches == ["Alice 2 : 1 Bob"])
                #expect(shown.status.contains("live") && shown.status.contains("editor"))

                // A change made by goal-client appears: the latency is recorded, never judged (a loaded 2-core box).
                let started = ContinuousClock.now
                let scored = try await client.run(["matches", "score", short, "away"])
                try #require(scored.status == 0, "\(scored.stderr)")
                let committed = ContinuousClock.now
                let changed = try await page.waitFor("goal-client's +1 for Bob") { $0.matches == ["Alice 2 : 2 Bob"] }
                let seen = ContinuousClock.now
                print(
                    "BrowserTests latency (recorded, not judged): goal-client started → page shows its change "
                        + "\(seen - started); goal-client exited (acked) → page shows it \(seen - committed); "
                        + "each includes up to one 50 ms WebDriver poll"
                )
                #expect(changed.rankings.first == ["1", "Alice", "3.33", "1", "0", "1", "0"])
                #expect(changed.sessions == 1, "the digest chain held: no reconnect")
                try #require(changed.revision == 5 && changed.status.contains("r5"), "the status follows: \(changed)")
                await run.screenshot(page, "live-change")
                let console = try await page.session.severeConsoleMessages()
                #expect(console == [], "no script error, no CSP violation: \(console)")

                // goald stops: the page says so; goald comes back on the same port and database: the page resumes.
                await daemon.stop()
                try await page.waitFor("the page noticing the restart") { $0.phase != "live" }
                // A + while goald is down waits in the page's outbox, marked pending, and is sent once on resume.
                try await page.session.click("#matches li[data-key='\(matchID)'] button.adjust.home.plus")
                try await page.waitFor("the + marked pending") { $0.pending == 1 && $0.matches == ["Alice 2 : 2 Bob"] }
                await run.screenshot(page, "daemon-down")
                daemon = try await TestDaemon.start(databaseAt: path, on: reservation)
                let resumed = try await page.waitFor("the page live again, its + applied") {
                    $0.phase == "live" && $0.sessions == 2 && $0.pending == 0 && $0.matches == ["Alice 3 : 2 Bob"]
                }
                #expect(resumed.mode != "snapshot", "resumed with since, epoch and digest: \(resumed)")
                #expect(resumed.alert == "")
                let again = try await client.run(["matches", "score", short, "away"])
                try #require(again.status == 0, "\(again.stderr)")
                try await page.waitFor("a change after the restart") { $0.matches == ["Alice 3 : 3 Bob"] }
                await run.screenshot(page, "after-restart")
            }
            await daemon.stop()
        } catch {
            await daemon.stop()
            throw error
        }
    }

    @Test(
        "an editor's + changes the score for a second browser (a viewer on a phone); add-match, match dates, a refusal"
    )
    func editorScoresForSecondBrowser() async throws {
        try await withTestDaemon { daemon in
            try await withBrowsers("editorScoresForSecondBrowser") { run in
                let matchID = try await Self.seed(try ClientEnvironment.make(daemon, token: daemon.tokens.editor))
                let editor = try await run.open("editor")
                let viewer = try await run.open("phone-viewer", phone: true)
                for (browser, token) in [(editor, daemon.tokens.editor), (viewer, daemon.tokens.viewer)] {
                    try await browser.session.open(Self.url(daemon))
                    try await browser.waitFor("the token form") { $0.loginShown }
                    try await browser.signIn(token)
                    try await browser.waitFor("the league") { $0.phase == "live" && $0.matches == ["Alice 2 : 1 Bob"] }
                    await run.screenshot(browser, "league")
                }
                #expect(try await editor.state().adjustButtons == 4)
                #expect(try await editor.state().addMatchShown)
                let viewerControls = try await viewer.state()
                #expect(viewerControls.adjustButtons == 0 && !viewerControls.addMatchShown, "a viewer gets no controls")

                try await editor.session.click("#matches li[data-key='\(matchID)'] button.adjust.home.plus")
                try await viewer.waitFor("the editor's + in the other browser") { $0.matches == ["Alice 3 : 1 Bob"] }
                try await editor.waitFor("the editor's + in its own browser") { $0.matches == ["Alice 3 : 1 Bob"] }
                await run.screenshot(viewer, "after-plus")

                // The add-match form: Carol vs Bob 1 : 0, newest first on both pages.
                try await editor.session.click("#add-match-panel summary")
                try await editor.session.run(
                    """
                    const pick = (select, name) => { for (const o of document.querySelector(select).options) o.selected = o.textContent === name; };
                    pick('#home-players', 'Carol'); pick('#away-players', 'Bob');
                    document.querySelector('#home-goals').value = '1'; document.querySelector('#away-goals').value = '0';
                    """
                )
                await run.screenshot(editor, "add-match-form")
                try await editor.session.click("#add-match button[type=submit]")
                let added = try await viewer.waitFor("the added match, newest first, dated from its changeset") {
                    $0.matches == ["Carol 1 : 0 Bob", "Alice 3 : 1 Bob"] && Self.isDate($0.dates[0])
                }
                await run.screenshot(viewer, "after-add-match")
                // The editor's page shows both rows: the seeded match (from the snapshot) is dated through history.
                let dated = try await editor.waitFor("both matches dated") {
                    $0.dates.count == 2 && $0.dates.allSatisfy(Self.isDate)
                }
                #expect(dated.dates[0] == added.dates[0], "one changeset time, the same date on both pages")

                // A refusal as goal-client words it: Bob's goals cannot go below 0.
                try await editor.session.click("#matches li[data-key='\(matchID)'] button.adjust.away.minus")
                try await editor.session.click("#matches li[data-key='\(matchID)'] button.adjust.away.minus")
                let refused = try await editor.waitFor("the refusal") { $0.alert.hasPrefix("refused (") }
                #expect(refused.alert.hasPrefix("refused (goals_out_of_range): "), "\(refused.alert)")
                await run.screenshot(editor, "refusal")
                try await viewer.waitFor("one −1 applied, the other refused") {
                    $0.matches == ["Carol 1 : 0 Bob", "Alice 3 : 0 Bob"]
                }

                for browser in [editor, viewer] {
                    let console = try await browser.session.severeConsoleMessages()
                    #expect(console == [], "\(browser.name): \(console)")
                }

                // The phone's viewport: everything fits its width.
                let width = try await viewer.session.run(
                    "return String(document.documentElement.scrollWidth) + ' ' + String(innerWidth);"
                )
                let parts = width.split(separator: " ").compactMap { Int($0) }
                #expect(
                    parts.count == 2 && parts[1] <= 400 && parts[0] <= parts[1],
                    "scrollWidth, innerWidth: \(width)"
                )
            }
        }
    }

    @Test(
        "?tv on a 1080p screen: large type, rankings beside the last matches, no controls; a refused token is asked again"
    )
    func tvMode() async throws {
        try await withTestDaemon { daemon in
            try await withBrowsers("tvMode") { run in
                _ = try await Self.seed(try ClientEnvironment.make(daemon, token: daemon.tokens.editor))
                let tv = try await run.open("tv-1080p")
                try await tv.session.open(Self.url(daemon, "?tv"))
                try await tv.waitFor("the token form") { $0.loginShown }
                // An unknown token: the stream closes with 4401, the page forgets it and asks again.
                try await tv.signIn("gt_not-a-token")
                let refused = try await tv.waitFor("the refusal of an unknown token") {
                    $0.phase == "stopped" && $0.loginShown && !$0.alert.isEmpty
                }
                #expect(refused.alert == "this token was refused (unknown); enter another", "\(refused)")
                #expect(try await tv.session.run("return String(localStorage.getItem('goald.token'))") == "null")
                try await tv.signIn(daemon.tokens.editor)
                let shown = try await tv.waitFor("the league") { $0.phase == "live" && $0.matches.count == 1 }
                // The token is kept in localStorage and never put in the page's URL.
                let kept = try await tv.session.run("return localStorage.getItem('goald.token') + ' ' + location.href")
                #expect(kept == "\(daemon.tokens.editor) \(Self.url(daemon, "?tv"))")
                await run.screenshot(tv, "tv")
                #expect(shown.adjustButtons == 0 && !shown.addMatchShown)
                let layout = try await tv.session.run(
                    """
                    const r = document.querySelector('#rankings-section').getBoundingClientRect();
                    const m = document.querySelector('#matches-section').getBoundingClientRect();
                    const size = parseFloat(getComputedStyle(document.body).fontSize);
                    return [Math.round(r.left), Math.round(r.top), Math.round(m.left), Math.round(m.top), size,
                      document.documentElement.scrollWidth, innerWidth].join(' ');
                    """
                )
                let numbers = layout.split(separator: " ").compactMap { Double($0) }
                try #require(numbers.count == 7, "\(layout)")
                #expect(numbers[2] > numbers[0] + 500 && abs(numbers[3] - numbers[1]) < 5, "side by side: \(layout)")
                #expect(numbers[4] >= 24, "large type: \(layout)")
                #expect(numbers[6] == 1920 && numbers[5] <= numbers[6], "fits 1080p: \(layout)")
            }
        }
    }

    @Test("the page's modules: its digest check agrees with PROTOCOL.md's chain; refusals read as in goal-client")
    func pageModulesInTheBrowser() async throws {
        let protocolPath = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/PROTOCOL.md").path
        let lines = try String(contentsOfFile: protocolPath, encoding: .utf8).split(separator: "\n").map(String.init)
        let changesets = lines.filter { $0.hasPrefix(#"{"type":"changeset","revision":"#) && !$0.contains("<d_R") }
        let rejections = lines.filter { $0.hasPrefix(#"{"type":"rejected","#) }
        try #require(changesets.count == 4 && rejections.count == 3)
        let json = { (strings: [String]) in
            String(decoding: try JSONSerialization.data(withJSONObject: strings), as: UTF8.self)
        }
        try await withTestDaemon { daemon in
            try await withBrowsers("pageModulesInTheBrowser") { run in
                let page = try await run.open("desktop")
                try await page.session.open(Self.url(daemon))
                try await page.waitFor("the page") { $0.loginShown }
                let verdicts = try await page.session.run(
                    """
                    return import('/web/stream.js').then(async (m) => {
                      const frames = JSON.parse(arguments[0]).map((t) => JSON.parse(t));
                      let previous = '0'.repeat(64);
                      const out = [];
                      for (const f of frames) { out.push(await m.continuesChain(f, previous)); previous = f.digest; }
                      const tampered = Object.assign({}, frames[3], { author: 'mallory' });
                      out.push(await m.continuesChain(tampered, frames[2].digest));
                      return out.join(' ');
                    });
                    """,
                    [try json(changesets)]
                )
                #expect(verdicts == "true true true true false")

                // PROTOCOL.md's conflict and player_in_use examples, over its league (Ada, Béa, one match), and
                // five more: ids in a message (full, and short after "player "/"match "), unauthorized, a conflict on
                // two fields.
                let wording = try await page.session.run(
                    """
                    return Promise.all([import('/web/league.js'), import('/web/refusal.js')]).then(([l, r]) => {
                      const league = new l.League();
                      for (const t of JSON.parse(arguments[0])) league.apply(JSON.parse(t));
                      const rejections = JSON.parse(arguments[1]).map((t) => JSON.parse(t));
                      const ada = '6d1f0c2a-5b3e-4f47-9a8b-1c2d3e4f5a6b', bea = '0e9d8c7b-6a5f-4e3d-8c2b-1a0f9e8d7c6b';
                      const match = Array.from(league.matches.values())[0];
                      rejections.push({ code: 'unknown_player', fields: [], message: ada + ' is not ' + match.id });
                      rejections.push({ code: 'player_on_both_sides', fields: [],
                        message: 'player ' + ada.slice(0, 8) + ' cannot play on both sides' });
                      rejections.push({ code: 'goals_out_of_range', fields: [],
                        message: 'match ' + match.id.slice(0, 8) + ' has 0 home goals; 7e3d2c1b stays an id' });
                      rejections.push({ code: 'unauthorized', fields: [], message: 'vera is a viewer' });
                      rejections.push({ code: 'conflict', fields: ['away_players', 'home_goals'],
                        current: Object.assign({ kind: 'match' }, match, { away_players: [bea, ada] }) });
                      return JSON.stringify(rejections.map((x) => r.refusalText(x, league)));
                    });
                    """,
                    [try json(changesets), try json(rejections)]
                )
                let texts = try JSONDecoder().decode([String].self, from: Data(wording.utf8))
                #expect(
                    texts == [
                        "Someone else changed home goals while you were editing. Now: home goals: 1.",
                        "refused (player_in_use): Béa plays in 1 match",
                        "refused (invalid): mutate.home_goals: expected an integer; found a fraction",
                        "refused (unknown_player): \"Ada\" is not c4a7e2f1 (Ada vs Béa)",
                        "refused (player_on_both_sides): player \"Ada\" cannot play on both sides",
                        "refused (goals_out_of_range): match c4a7e2f1 (Ada vs Béa) has 0 home goals; 7e3d2c1b stays an id",
                        "refused (unauthorized): vera is a viewer; ask an admin for an editor token",
                        "Someone else changed away players and home goals while you were editing. Now: away players: "
                            + "Béa, Ada; home goals: 1.",
                    ]
                )
            }
        }
    }
}
