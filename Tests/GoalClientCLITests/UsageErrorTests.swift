import Foundation
import GoalTestSlots
import GoalTestSupport
import Testing

@Suite("goal-client usage errors exit 2 with a sentence (issue 16 point 9)", .serialized, .slotted)
struct UsageErrorTests {
    @Test("login --fingerprint abcd: exit 2 naming the flag, before reading a token or connecting")
    func malformedFingerprint() async throws {
        try await withTestDaemon { daemon in
            var client = try ClientEnvironment.make(daemon, token: daemon.tokens.editor)
            client.environment["GOAL_CA_FILE"] = nil
            let login = try await client.run(
                ["login", "--server", "wss://localhost:\(daemon.port)", "--fingerprint", "abcd"],
                stdin: daemon.tokens.editor + "\n"
            )
            #expect(login.status == 2, "\(login.stderr)")
            #expect(login.stderr.contains("--fingerprint \"abcd\" is not a certificate fingerprint"), "\(login.stderr)")
            #expect(login.stderr.contains("64 digits"))

            var fromEnvironment = client
            fromEnvironment.environment["GOAL_FINGERPRINT"] = "xyz"
            let list = try await fromEnvironment.run(["players", "list"])
            #expect(list.status == 2, "\(list.stderr)")
            #expect(list.stderr.contains("GOAL_FINGERPRINT \"xyz\" is not a certificate fingerprint"), "\(list.stderr)")
        }
    }

    @Test("a missing or non-PEM CA file: exit 2 naming the path and where it came from, never failedToLoadCertificate")
    func missingCAFile() async throws {
        try await withTestDaemon { daemon in
            let client = try ClientEnvironment.make(daemon, token: daemon.tokens.editor)
            let missing = client.directory + "/nowhere/ca.pem"
            let flag = try await client.run(["players", "list", "--ca-file", missing])
            #expect(flag.status == 2, "\(flag.stderr)")
            #expect(flag.stderr.contains("no CA file at \(missing) (from --ca-file)"), "\(flag.stderr)")
            #expect(!flag.stderr.contains("failedToLoadCertificate"))

            let login = try await client.run(
                ["login", "--server", "wss://localhost:\(daemon.port)", "--ca-file", missing],
                stdin: daemon.tokens.editor + "\n"
            )
            #expect(login.status == 2, "\(login.stderr)")
            #expect(login.stderr.contains("no CA file at \(missing)"), "\(login.stderr)")

            var environment = client
            environment.environment["GOAL_CA_FILE"] = missing
            let fromEnvironment = try await environment.run(["players", "list"])
            #expect(fromEnvironment.status == 2, "\(fromEnvironment.stderr)")
            #expect(fromEnvironment.stderr.contains("(from GOAL_CA_FILE)"), "\(fromEnvironment.stderr)")

            let notPEM = client.directory + "/not-a-certificate.pem"
            try "hello\n".write(toFile: notPEM, atomically: true, encoding: .utf8)
            let wrongFile = try await client.run(["players", "list", "--ca-file", notPEM])
            #expect(wrongFile.status == 2, "\(wrongFile.stderr)")
            #expect(wrongFile.stderr.contains("holds no PEM certificate"), "\(wrongFile.stderr)")
            #expect(!wrongFile.stderr.contains("failedToLoadCertificate"))
        }
    }

    @Test("--score -1:2 parses; the server refuses it with its own message (exit 1)")
    func negativeScoreParses() async throws {
        try await withTestDaemon { daemon in
            let client = try ClientEnvironment.make(daemon, token: daemon.tokens.editor)
            #expect(try await client.run(["players", "add", "Alice"]).status == 0)
            #expect(try await client.run(["players", "add", "Bob"]).status == 0)
            let add = try await client.run(["matches", "add", "--home", "Alice", "--away", "Bob", "--score", "-1:2"])
            #expect(add.status == 1, "\(add.stderr)")
            #expect(add.stderr.contains("refused (goals_out_of_range): home goals would be -1"), "\(add.stderr)")
        }
    }

    @Test("matches add --help shows the score's default as 0:0")
    func scoreDefaultInHelp() async throws {
        try await withTestDaemon { daemon in
            let client = try ClientEnvironment.make(daemon, token: daemon.tokens.editor)
            let help = try await client.run(["matches", "add", "--help"])
            #expect(help.status == 0)
            #expect(help.stdout.contains("(default: 0:0)"), "\(help.stdout)")
            #expect(!help.stdout.contains("Pair("))
        }
    }
}
