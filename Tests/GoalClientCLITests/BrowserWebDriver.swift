import Crypto
import Foundation
import GoalTestSupport
import NIOHTTP1
import NIOSSL
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The browsers the BrowserTests need: Chromium and its chromedriver from the distribution's packages
/// (`apt-get install chromium chromium-driver`, `.ci/run`). Without them the tests skip loudly; with
/// `GOALD_REQUIRE_CHROMIUM=1` (CI's browser stage) they fail instead. Stateless.
enum Chromium {
    static let isRequired = ProcessInfo.processInfo.environment["GOALD_REQUIRE_CHROMIUM"] == "1"

    /// The first executable of `names` on PATH (or in /usr/bin), or nil.
    static func find(_ names: [String]) -> String? {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "") + ":/usr/bin:/usr/lib/chromium"
        for name in names {
            for directory in path.split(separator: ":")
            where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
                return "\(directory)/\(name)"
            }
        }
        return nil
    }

    static let browser = find(["chromium", "chromium-browser", "google-chrome"])
    static let driver = find(["chromedriver"])

    /// True when the test may go on; false after printing why it is skipped (or recording an issue when
    /// GOALD_REQUIRE_CHROMIUM=1).
    static func available(for test: String) -> Bool {
        guard browser == nil || driver == nil else { return true }
        let reason = "Chromium and chromedriver are not both on PATH (apt-get install chromium chromium-driver)"
        if isRequired {
            Issue.record("GOALD_REQUIRE_CHROMIUM=1 but \(reason)")
        } else {
            print("SKIPPED BrowserTests.\(test): \(reason)")
        }
        return false
    }
}

/// Why a WebDriver call failed: the command, the HTTP status and chromedriver's message.
struct WebDriverError: Error, CustomStringConvertible {
    let description: String
}

/// One chromedriver process (spawned with posix_spawn on a port it picks itself) and the W3C WebDriver commands
/// the BrowserTests use, over plain HTTP to 127.0.0.1 (`PlainHTTP`).
///
/// Threading: `Sendable` (immutable); calls may come from any task. Lifetime: `start` → `stop()`, which every test
/// calls on success and failure paths (`withBrowsers`).
struct WebDriver: Sendable {
    let child: ChildProcess
    let base: URL
    let directory: String

    /// Starts chromedriver with its log in `directory` and waits until it names its port. Up to three attempts:
    /// with `--port=0` chromedriver picks a free port and then binds it, and a parallel test can take the port in
    /// between ("IPv4 port not available. Exiting...").
    static func start(in directory: String) async throws -> WebDriver {
        var attempt = 1
        while true {
            do {
                return try await startOnce(in: directory, log: directory + "/chromedriver-\(attempt).log")
            } catch let error as WebDriverError where attempt < 3 && error.description.contains("ended before") {
                attempt += 1
            }
        }
    }

    private static func startOnce(in directory: String, log: String) async throws -> WebDriver {
        let child = try ChildProcess.spawn(
            Chromium.driver!,
            ["--port=0", "--log-path=\(directory)/chromedriver-verbose.log"],
            stdout: log,
            stderr: log + ".err"
        )
        var port: Int?
        do {
            try await pollUntil("chromedriver names its port", timeout: .seconds(30)) {
                let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""  // not written yet: poll again
                if let range = text.range(of: "started successfully on port ") {
                    port = Int(text[range.upperBound...].prefix { $0.isNumber })
                }
                return port != nil || !child.isRunning
            }
        } catch {
            kill(child.pid, SIGKILL)
            _ = await child.wait(timeout: 10)
            throw error
        }
        guard let port else {
            _ = await child.wait(timeout: 10)
            throw WebDriverError(description: "chromedriver ended before it listened; see \(log)")
        }
        return WebDriver(child: child, base: URL(string: "http://127.0.0.1:\(port)")!, directory: directory)
    }

    /// Stops chromedriver, then ends (SIGKILL, by pid) every process whose command line names this run's own
    /// directory: chromedriver leaves a browser running when it stops before that browser's session was deleted (a
    /// session whose creation answer was lost, a test that failed mid-way), and each browser's profile is in here.
    func stop() async {
        kill(child.pid, SIGTERM)
        _ = await child.wait(timeout: 20)
        for pid in Self.processes(mentioning: directory) { kill(pid, SIGKILL) }
    }

    /// The processes whose command line contains `text` (read from /proc), this one excepted.
    static func processes(mentioning text: String) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []  // no /proc: none found
        return entries.compactMap { name -> pid_t? in
            guard let pid = pid_t(name), pid != getpid(),
                let data = FileManager.default.contents(atPath: "/proc/\(name)/cmdline")
            else { return nil }
            let commandLine = String(decoding: data.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
            return commandLine.contains(text) ? pid : nil
        }
    }

    /// The test server's key as Chromium pins it: base64 of SHA-256 of its SubjectPublicKeyInfo.
    static func serverKeyPin() throws -> String {
        let spki = try TestCertificates.shared.serverCertificate.extractPublicKey().toSPKIBytes()
        return Data(SHA256.hash(data: spki)).base64EncodedString()
    }

    /// A headless Chromium with a fresh profile in `directory` that trusts exactly the test daemons' server key
    /// (`--ignore-certificate-errors-spki-list`, which needs the profile dir; every other certificate error still
    /// fails, and the page is a secure context, so `crypto.subtle` works).
    /// - Parameters:
    ///   - phone: A phone's viewport (390 × 844 at 3×, touch) instead of a 1920 × 1080 window.
    func newSession(phone: Bool) async throws -> BrowserSession {
        let profile = directory + "/profile-\(UUID().uuidString.prefix(8))"
        var options: [String: Any] = [
            "binary": Chromium.browser!,
            "args": [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                "--user-data-dir=\(profile)", "--window-size=1920,1080", "--disable-extensions",
                "--ignore-certificate-errors-spki-list=\(try Self.serverKeyPin())",
                "--disable-background-networking",
            ],
        ]
        if phone {
            options["mobileEmulation"] = [
                "deviceMetrics": ["width": 390, "height": 844, "pixelRatio": 3, "touch": true]
            ]
        }
        let capabilities: [String: Any] = [
            "capabilities": [
                "alwaysMatch": [
                    "browserName": "chrome", "goog:chromeOptions": options, "goog:loggingPrefs": ["browser": "ALL"],
                ] as [String: Any]
            ]
        ]
        let value = try await WebDriverHTTP.call(base, "POST", "/session", capabilities)
        guard let id = (value as? [String: Any])?["sessionId"] as? String else {
            throw WebDriverError(description: "POST /session: no sessionId in \(String(describing: value))")
        }
        return BrowserSession(base: base, id: id)
    }
}

/// One browser window driven over WebDriver. Threading: `Sendable` (immutable). Lifetime: until `quit()`.
struct BrowserSession: Sendable {
    let base: URL
    let id: String

    private func call(_ method: String, _ path: String, _ body: [String: Any]? = nil) async throws -> Any? {
        try await WebDriverHTTP.call(base, method, "/session/\(id)\(path)", body)
    }

    func open(_ url: String) async throws {
        _ = try await call("POST", "/url", ["url": url])
    }

    /// Runs `script` in the page (`arguments[0]`… are `arguments`) and returns what it returns, as a string.
    @discardableResult
    func run(_ script: String, _ arguments: [String] = []) async throws -> String {
        let value = try await call("POST", "/execute/sync", ["script": script, "args": arguments])
        if let string = value as? String { return string }
        if value == nil || value is NSNull { return "" }
        return "\(value!)"
    }

    /// Clicks the first element `selector` finds, as a user would (WebDriver's element click).
    func click(_ selector: String) async throws {
        let found = try await call("POST", "/element", ["using": "css selector", "value": selector])
        guard let element = (found as? [String: Any])?.values.first as? String else {
            throw WebDriverError(description: "no element for \(selector)")
        }
        _ = try await call("POST", "/element/\(element)/click", [:])
    }

    /// The page's console messages of level SEVERE so far (script errors, CSP violations, failed loads), and
    /// chromedriver forgets them once read (chromedriver's `se/log`, not W3C).
    func severeConsoleMessages() async throws -> [String] {
        let entries = try await call("POST", "/se/log", ["type": "browser"]) as? [[String: Any]] ?? []
        return entries.filter { $0["level"] as? String == "SEVERE" }.map { ($0["message"] as? String) ?? "\($0)" }
    }

    /// A PNG of the viewport.
    func screenshot() async throws -> Data {
        guard let text = try await call("GET", "/screenshot") as? String, let data = Data(base64Encoded: text) else {
            throw WebDriverError(description: "the screenshot was not base64")
        }
        return data
    }

    func quit() async {
        _ = try? await call("DELETE", "")  // a browser that is already gone needs no quit
    }
}

/// JSON over HTTP to chromedriver. Stateless.
enum WebDriverHTTP {
    /// Sends one command; returns its `value`, or throws the WebDriver error it names.
    static func call(_ base: URL, _ method: String, _ path: String, _ body: [String: Any]?) async throws -> Any? {
        let payload = try body.map { try JSONSerialization.data(withJSONObject: $0) }
        let (status, data) = try await PlainHTTP.request(
            host: base.host ?? "127.0.0.1",
            port: base.port ?? 80,
            method: HTTPMethod(rawValue: method),
            path: path,
            body: payload.map(Array.init)
        )
        let object = try? JSONSerialization.jsonObject(with: Data(data), options: [.fragmentsAllowed])  // checked next
        let value = (object as? [String: Any])?["value"]
        guard (200..<300).contains(status) else {
            let message = ((value as? [String: Any])?["message"] as? String) ?? String(decoding: data, as: UTF8.self)
            throw WebDriverError(description: "\(method) \(path): HTTP \(status): \(message.prefix(600))")
        }
        return value
    }
}
