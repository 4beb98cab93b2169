import Foundation
import GoalTestSlots
import GoalTestSupport
import Testing

/// README.md's walkthrough runs as written (issue 35 point 7): its shell blocks, in order, against a fresh home
/// directory, with the binaries `swift test` built (`ReadmeScript` says which lines start daemons and which blocks
/// are not run, and why). Only three things are changed in the text: `.build/debug/` names the built products, the
/// ports 7443 and 7444 become reserved test ports, and `/tmp/league` lies in the test's directory.
@Suite(
    "README's walkthrough runs as written",
    .enabled(if: Tmux.isAvailable && ReadmeProducts.hasCurl, "needs tmux and curl"),
    .slotted
)
struct ReadmeWalkthroughTests {
    static func readme() throws -> String { try RepositoryFiles.text("README.md") }

    @Test("which blocks run: every shell block but those whose marker says why not")
    func plan() throws {
        let script = ReadmeScript(try Self.readme())
        let run = script.blocks.filter { $0.notRun == nil }
        #expect(script.blocks.count - run.count == 7, "\(script.blocks.map { ($0.line, $0.notRun ?? "run") })")
        let steps = run.flatMap(\.commands).map(ReadmeScript.step)
        #expect(steps.filter { if case .daemon = $0 { true } else { false } }.count == 2, "\(steps)")
        #expect(steps.contains(.command(".build/debug/goal-client players add Alice")))
        let creates = run.flatMap(\.commands).filter { $0.contains("goald token create") }
        #expect(!creates.isEmpty && creates.allSatisfy { $0.contains("--state-dir /tmp/league") }, "\(creates)")
    }

    @Test("the README's shell blocks run in order against fresh state: every command exits 0, no answer is an error")
    func walkthrough() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }  // best effort: a leftover is harmless
        let home = directory + "/home"
        let bin = directory + "/bin"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        try ReadmeProducts.install(into: bin, scratch: directory)
        let quickStart = try PortReservation()
        let walkthrough = try PortReservation()
        let environment = ["HOME": home, "PATH": bin + ":/usr/bin:/bin", "TERM": "xterm-256color", "LANG": "C.UTF-8"]
        func rewrite(_ command: String) -> String {
            command.replacingOccurrences(of: ".build/debug/", with: bin + "/")
                .replacingOccurrences(of: "7443", with: String(quickStart.port))
                .replacingOccurrences(of: "7444", with: String(walkthrough.port))
                .replacingOccurrences(of: "/tmp/league", with: directory + "/league")
        }
        var daemons: [ChildProcess] = []
        defer {
            for daemon in daemons { daemon.signal(SIGKILL) }
        }
        let script = ReadmeScript(try Self.readme())
        for (number, block) in script.blocks.enumerated() where block.notRun == nil {
            var commands: [String] = []
            for command in block.commands {
                switch ReadmeScript.step(command) {
                case .build:
                    continue
                case .daemon(let code):
                    let code = code == "swift run goald" ? bin + "/goald" : rewrite(code)
                    daemons.append(
                        try await Self.startDaemon(
                            code,
                            environment: environment.merging(["GOALD_PORT": String(quickStart.port)]) { $1 },
                            output: "\(directory)/daemon-\(daemons.count).out"
                        )
                    )
                case .command(let text):
                    commands.append(rewrite(text))
                }
            }
            guard !commands.isEmpty else { continue }
            let output = "\(directory)/block-\(number).out"
            let file = "\(directory)/block-\(number).sh"
            try (["set -eo pipefail"] + commands).joined(separator: "\n").write(
                toFile: file,
                atomically: true,
                encoding: .utf8
            )
            let child = try ChildProcess.spawn(
                "/bin/bash",
                [file],
                environment: environment,
                stdout: output,
                stderr: output + ".err",
                workingDirectory: directory
            )
            let status = await child.wait(timeout: 120)
            let text = Self.read(output) + Self.read(output + ".err")
            #expect(status == 0, "README block at line \(block.line) exited \(status):\n\(commands)\n\(text)")
            #expect(!text.contains(#""response_type":"error""#), "line \(block.line): an HTTP API error\n\(text)")
            #expect(!text.contains("refused"), "line \(block.line): a refusal\n\(text)")
            if status != 0 { return }
        }
        #expect(daemons.count == 2, "the quick start's daemon and the walkthrough's")
        // What the walkthrough made is there: Alice on both daemons, the REST block's Ada, Bob and their match on the
        // quick start's, Bob's token on the walkthrough's.
        let check = try ChildProcess.spawn(
            "/bin/bash",
            [
                "-c",
                rewrite(
                    #"S=~/.local/state/goald; curl -s --cacert $S/tls/ca.pem -H "Authorization: Bearer $(cat $S/admin-token)" "#
                        + #"https://localhost:7443/api/v1/matches; .build/debug/goal-client players list --json"#
                ),
            ],
            environment: environment,
            stdout: directory + "/check.out",
            stderr: directory + "/check.err"
        )
        #expect(await check.wait(timeout: 60) == 0, "\(Self.read(directory + "/check.err"))")
        let league = Self.read(directory + "/check.out")
        for expected in [#""home_goals":2"#, #""name":"Ada""#, #""name":"Bob""#, #""name":"Alice""#] {
            #expect(league.contains(expected), "\(expected) in \(league)")
        }
        for daemon in daemons { daemon.signal(SIGINT) }
        for daemon in daemons { #expect(await daemon.wait(timeout: 30) == 0, "a daemon stops cleanly on Ctrl-C") }
        daemons = []
    }

    /// Starts a `# keep it running` line and waits for its banner's "Connect:" (or fails with its output).
    private static func startDaemon(
        _ code: String,
        environment: [String: String],
        output: String
    ) async throws -> ChildProcess {
        let child = try ChildProcess.spawn(
            "/bin/bash",
            ["-c", "exec " + code],
            environment: environment,
            stdout: output,
            stderr: output + ".err"
        )
        try await pollUntil(
            "the daemon of `\(code)` prints its banner",
            timeout: .seconds(60),
            detail: { read(output) + read(output + ".err") },
            { read(output).contains("Connect:") || !child.isRunning }
        )
        #expect(child.isRunning, "`\(code)` exited: \(read(output + ".err"))")
        return child
    }

    private static func read(_ path: String) -> String {
        // A missing file reads as empty: the step did not write it.
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }
}
