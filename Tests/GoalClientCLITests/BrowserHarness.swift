import Foundation
import GoalTestSupport
import Synchronization

/// What the league page shows, read from its DOM as a user reads it (the status line, the rankings' cells, each
/// match's "home score away" text and its date, the alert), plus the status line's data attributes (phase, mode, revision, how
/// many sessions the page has had).
struct PageState: Decodable, Sendable, CustomStringConvertible {
    var phase: String
    var mode: String
    var revision: Int
    var sessions: Int
    var status: String
    var rankings: [[String]]
    var matches: [String]
    /// Each match row's date ("HH:MM" today, else "YYYY-MM-DD"; "" while unknown), in list order.
    var dates: [String]
    var alert: String
    var adjustButtons: Int
    var pending: Int
    var addMatchShown: Bool
    var loginShown: Bool

    var description: String {
        "phase \(phase) (\(status)), mode \(mode), r\(revision), sessions \(sessions), rankings \(rankings), "
            + "matches \(matches) dated \(dates) (\(pending) pending), alert \"\(alert)\""
    }

    static let script = """
        const c = document.querySelector('#connection');
        const shown = (s) => { const n = document.querySelector(s); return !!n && !n.hidden && n.offsetParent !== null; };
        const alert = document.querySelector('#alert');
        return JSON.stringify({
          phase: c.dataset.phase || '', mode: c.dataset.mode || '', revision: Number(c.dataset.revision || 0),
          sessions: Number(c.dataset.sessions || 0), status: c.textContent,
          rankings: Array.from(document.querySelectorAll('#rankings tbody tr'),
            (tr) => Array.from(tr.children, (cell) => cell.textContent)),
          matches: Array.from(document.querySelectorAll('#matches li'), (li) =>
            li.querySelector('.home').textContent + ' ' + li.querySelector('.score').textContent + ' ' +
            li.querySelector('.away').textContent),
          dates: Array.from(document.querySelectorAll('#matches li'), (li) => li.querySelector('.date').textContent),
          alert: alert.hidden ? '' : alert.textContent,
          adjustButtons: Array.from(document.querySelectorAll('button.adjust')).filter((b) => b.offsetParent !== null).length,
          pending: document.querySelectorAll('#matches li.is-pending').length,
          addMatchShown: shown('#add-match-panel'), loginShown: shown('#login'),
        });
        """
}

/// A browser window in one test, with a name for its screenshots.
struct Browser: Sendable {
    let name: String
    let session: BrowserSession

    func state() async throws -> PageState {
        let text = try await session.run(PageState.script)
        return try JSONDecoder().decode(PageState.self, from: Data(text.utf8))
    }

    /// Types `token` into the page's token form and submits it (the token then lives in localStorage).
    func signIn(_ token: String) async throws {
        try await session.run(
            "document.querySelector('#token').value = arguments[0]; document.querySelector('#login').requestSubmit();",
            [token]
        )
    }

    /// Polls the page until `condition` holds; the deadline guards against a hung test, it is not a timing check.
    @discardableResult
    func waitFor(
        _ what: String,
        timeout: Duration = .seconds(60),
        _ condition: (PageState) -> Bool
    ) async throws -> PageState {
        let deadline = ContinuousClock.now + timeout
        var last: PageState?
        while ContinuousClock.now < deadline {
            let state = try await state()
            if condition(state) { return state }
            last = state
            try await Task.sleep(for: .milliseconds(50))
        }
        throw WebDriverError(
            description:
                "\(name): timed out waiting for \(what); the page showed: \(last.map(String.init(describing:)) ?? "nothing")"
        )
    }
}

/// One test's chromedriver, browsers and screenshots: a screenshot of each named state is written as the test
/// goes, plus one of every browser at the failure; the directory is printed when the test fails and removed when
/// it passes (kept and printed with GOALD_KEEP_BROWSER_SCREENSHOTS=1, to look at the layouts). Threading: `Sendable` (a mutex over the open browsers). Lifetime: one `withBrowsers` call.
final class BrowserRun: Sendable {
    let driver: WebDriver
    let directory: String
    private let browsers = Mutex<[Browser]>([])
    private let shots = Mutex<Int>(0)

    init(driver: WebDriver, directory: String) {
        self.driver = driver
        self.directory = directory
    }

    /// Opens a browser: a 1920 × 1080 window, or a phone's viewport.
    func open(_ name: String, phone: Bool = false) async throws -> Browser {
        let browser = Browser(name: name, session: try await driver.newSession(phone: phone))
        browsers.withLock { $0.append(browser) }
        return browser
    }

    /// Writes a screenshot of `browser` named after the state it is in.
    func screenshot(_ browser: Browser, _ state: String) async {
        let number = shots.withLock { value -> Int in
            value += 1
            return value
        }
        let path = String(format: "%@/%02d-%@-%@.png", directory, number, browser.name, state)
        if let png = try? await browser.session.screenshot() {  // a browser that died has no screenshot to give
            _ = FileManager.default.createFile(atPath: path, contents: png)  // a failed write loses one picture only
        }
    }

    fileprivate func closeAll(failed: Bool) async {
        for browser in browsers.withLock({ $0 }) {
            if failed { await screenshot(browser, "at-failure") }
            await browser.session.quit()
        }
        await driver.stop()
    }
}

/// Runs `body` with a chromedriver of its own; skips loudly without Chromium (fails with GOALD_REQUIRE_CHROMIUM=1).
func withBrowsers(_ test: String, _ body: (BrowserRun) async throws -> Void) async throws {
    guard Chromium.available(for: test) else { return }
    let directory = try TestCertificates.makeTemporaryDirectory(prefix: "goald-browser-\(test)")
    let run = BrowserRun(driver: try await WebDriver.start(in: directory), directory: directory)
    do {
        try await body(run)
        await run.closeAll(failed: false)
        if ProcessInfo.processInfo.environment["GOALD_KEEP_BROWSER_SCREENSHOTS"] == "1" {
            print("BrowserTests.\(test): screenshots kept in \(directory)")
        } else {
            try? FileManager.default.removeItem(atPath: directory)  // a leftover temp dir harms no one
        }
    } catch {
        await run.closeAll(failed: true)
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []  // listing for the log
        print(
            "BrowserTests.\(test) FAILED: screenshots of each state and chromedriver's log are in \(directory): "
                + files.sorted().joined(separator: ", ")
        )
        throw error
    }
}
