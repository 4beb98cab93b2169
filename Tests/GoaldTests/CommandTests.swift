import ArgumentParser
import Foundation
import GoalModel
import GoalServer
import GoalStore
import GoalTestSlots
import Testing

@testable import goald

@Suite("goald subcommands run in process against a temporary state directory", .slotted)
struct CommandTests {
    private func run<Command: GoaldRunnable>(
        _ type: Command.Type,
        _ arguments: [String],
        in directory: TemporaryDirectory,
        environment: [String: String] = [:],
        terminal: Bool = false
    ) async throws -> String {
        let command = try #require(try Goald.parseAsRoot(arguments) as? Command)
        let output = OutputCapture()
        let context = output.context(
            environment: ["HOME": directory.path].merging(environment) { $1 },
            workingDirectory: directory.path,
            terminal: terminal
        )
        try await command.run(in: context)
        return output.text
    }

    /// Makes the league database in `directory`/state, as a first `goald serve` would.
    private func makeLeague(in directory: TemporaryDirectory) throws {
        try FileManager.default.createDirectory(atPath: directory.file("state"), withIntermediateDirectories: true)
        try SQLiteLeagueStorage(path: directory.file("state/goald.sqlite")).close()
    }

    @Test("token create prints the secret once; list never shows it; revoke stores the token revoked")
    func tokenLifecycle() async throws {
        let directory = try TemporaryDirectory()
        let state = ["--state-dir", directory.file("state")]
        try makeLeague(in: directory)
        let secret = try await run(
            Goald.Token.Create.self,
            ["token", "create", "--name", "alice", "--role", "editor"] + state,
            in: directory
        )
        #expect(TokenSecret(text: secret)?.text == secret)

        let explained = try await run(
            Goald.Token.Create.self,
            ["token", "create", "--name", "bob", "--role", "viewer"] + state,
            in: directory,
            terminal: true
        )
        #expect(explained.contains("Created token \"bob\" (role viewer)."))
        #expect(
            explained.contains(
                "goal-client login --server wss://127.0.0.1:7443 --ca-file \(directory.file("state"))/tls/ca.pem"
            )
        )

        let table = try await run(Goald.Token.List.self, ["token", "list"] + state, in: directory)
        #expect(table.contains("alice") && table.contains("editor") && table.contains("valid"))
        #expect(!table.contains(secret))

        let revoked = try await run(Goald.Token.Revoke.self, ["token", "revoke", "alice"] + state, in: directory)
        #expect(revoked.hasPrefix("Revoked token \"alice\" (role editor)."))
        let again = try await run(Goald.Token.Revoke.self, ["token", "revoke", "alice"] + state, in: directory)
        #expect(again.hasPrefix("Token \"alice\" was already revoked"))

        let json = try await run(Goald.Token.List.self, ["token", "list", "--json"] + state, in: directory)
        let entries = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]]
        #expect(entries?.map { $0["name"] as? String } == ["alice", "bob"])
        #expect(entries?[0]["revoked"] is String)
        #expect(entries?[1]["revoked"] is NSNull)
        #expect(!json.contains(secret))

        let storage = try SQLiteLeagueStorage(path: directory.file("state/goald.sqlite"))
        defer { try? storage.close() }
        let stored = try #require(try storage.token(secretHash: TokenSecret.hash(presented: secret)))
        #expect(stored.name == "alice")
        #expect(stored.isRevoked)
    }

    @Test("token errors: a taken name and an unknown name")
    func tokenErrors() async throws {
        let directory = try TemporaryDirectory()
        let state = ["--state-dir", directory.file("state")]
        try makeLeague(in: directory)
        _ = try await run(
            Goald.Token.Create.self,
            ["token", "create", "--name", "carol", "--role", "admin"] + state,
            in: directory
        )
        let taken = await #expect(throws: TokenAdministrationError.self) {
            _ = try await self.run(
                Goald.Token.Create.self,
                ["token", "create", "--name", "carol", "--role", "viewer"] + state,
                in: directory
            )
        }
        #expect(taken?.code == .nameTaken)
        let unknown = await #expect(throws: TokenAdministrationError.self) {
            _ = try await self.run(Goald.Token.Revoke.self, ["token", "revoke", "dave"] + state, in: directory)
        }
        #expect(unknown?.description == "no token is named \"dave\"; `goald token list` shows the names")
        let fresh = try TemporaryDirectory()
        let noDatabase = await #expect(throws: CommandFailure.self) {
            _ = try await self.run(Goald.Token.List.self, ["token", "list", "--state-dir", fresh.file("s")], in: fresh)
        }
        #expect(
            noDatabase?.description.hasPrefix("no database at \(fresh.file("s/goald.sqlite")); start goald once")
                == true
        )
        #expect(!FileManager.default.fileExists(atPath: fresh.file("s")))
    }

    @Test("check-config prints every key with its origin, masks secrets, and exits 1 listing every problem")
    func checkConfigMasks() async throws {
        let directory = try TemporaryDirectory()
        _ = try TLSMaterial.load(for: testConfiguration(directory))
        let tls = directory.file("state/tls")
        let key = try String(contentsOfFile: tls + "/server-key.pem", encoding: .utf8)
        let environment = [
            "GOALD_TLS_CERTIFICATE_PEM": try String(contentsOfFile: tls + "/server.pem", encoding: .utf8),
            "GOALD_TLS_PRIVATE_KEY_PEM": key,
            "GOALD_PORT": "9443",
        ]
        let report = try await run(
            Goald.CheckConfig.self,
            ["check-config", "--state-dir", directory.file("state2")],
            in: directory,
            environment: environment
        )
        #expect(report.contains("goald configuration: ok"))
        #expect(report.contains("tls: inline PEM (tls.certificatePEM, tls.privateKeyPEM)"))
        #expect(!report.contains("PRIVATE KEY"))
        #expect(!report.contains(String(key.split(separator: "\n")[1])))
        let keyLine = try #require(report.split(separator: "\n").first { $0.hasPrefix("tls.privateKeyPEM") })
        #expect(keyLine.contains("<secret, \(key.utf8.count) bytes>"))
        #expect(keyLine.hasSuffix("environment GOALD_TLS_PRIVATE_KEY_PEM"))
        for setting in GoaldSettings.all {
            #expect(report.contains("\n" + setting.key + " "), "check-config lacks \(setting.key)")
        }
        let portLine = try #require(report.split(separator: "\n").first { $0.hasPrefix("port ") })
        #expect(portLine.contains("9443") && portLine.hasSuffix("environment GOALD_PORT"))

        let output = OutputCapture()
        let failing = try #require(
            try Goald.parseAsRoot(["check-config", "--tls-certificate", "missing.pem", "--tls-private-key", "k.pem"])
                as? Goald.CheckConfig
        )
        await #expect(throws: (any Error).self) {
            try await failing.run(
                in: output.context(
                    environment: ["HOME": directory.path, "GOALD_PROT": "1"],
                    workingDirectory: directory.path
                )
            )
        }
        #expect(output.text.contains("problem: tls.certificateFile: \(directory.file("missing.pem")) does not exist"))
        #expect(output.text.contains("problem: tls.privateKeyFile: \(directory.file("k.pem")) does not exist"))
        #expect(output.text.contains("warning: GOALD_PROT names no configuration key"))
        #expect(output.text.hasSuffix("goald configuration: not usable (2 problems)"))
    }

    @Test("backup → restore round trip: contents equal, epoch rotated; restore refuses while goald holds the state")
    func backupRestore() async throws {
        let directory = try TemporaryDirectory()
        let configuration = testConfiguration(directory)
        let prepared = try StatePreparation.prepare(configuration, logger: silentLogger)
        try addPlayers(["Alice", "Bob", "Carol"], to: prepared.storage)
        let before = try prepared.storage.recover()

        let state = ["--state-dir", configuration.stateDirectory]
        let backup = try await run(Goald.Backup.self, ["backup", "league.backup"] + state, in: directory)
        #expect(backup.contains("Backed up \(configuration.databasePath) to \(directory.file("league.backup")):"))
        #expect(backup.contains("head revision 3"))
        #expect(backup.contains("3 players, 0 matches, 1 client instances"))
        #expect(try mode(of: directory.file("league.backup")) == 0o600)

        let refused = await #expect(throws: StateDirectoryLockError.self) {
            _ = try await self.run(Goald.Restore.self, ["restore", "league.backup"] + state, in: directory)
        }
        #expect(refused?.description.contains("in use by another goald") == true)

        try addPlayers(["Dave"], to: prepared.storage)
        try prepared.close()
        let restored = try await run(Goald.Restore.self, ["restore", "league.backup"] + state, in: directory)
        #expect(restored.contains("resync by snapshot"))

        let storage = try SQLiteLeagueStorage(path: configuration.databasePath)
        defer { try? storage.close() }
        let after = try storage.recover()
        #expect(after.head == before.head)
        #expect(after.headDigest == before.headDigest)
        #expect(Set(after.state.allPlayers) == Set(before.state.allPlayers))
        #expect(after.state.allPlayers.count == 3)
        #expect(after.epoch != before.epoch)
        #expect(restored.contains("New epoch \(after.epoch) (was \(before.epoch))."))
        #expect(try storage.tokens().map(\.name) == ["admin"])
    }

    @Test("backup refuses a missing database and an existing destination")
    func backupErrors() async throws {
        let directory = try TemporaryDirectory()
        let state = ["--state-dir", directory.file("state")]
        let missing = await #expect(throws: CommandFailure.self) {
            _ = try await self.run(Goald.Backup.self, ["backup", "b.sqlite"] + state, in: directory)
        }
        #expect(missing?.description.hasPrefix("no database at \(directory.file("state/goald.sqlite"))") == true)
        try makeLeague(in: directory)
        _ = try await run(
            Goald.Token.Create.self,
            ["token", "create", "--name", "x", "--role", "viewer"] + state,
            in: directory
        )
        try "taken".write(toFile: directory.file("b.sqlite"), atomically: true, encoding: .utf8)
        let exists = await #expect(throws: StorageError.self) {
            _ = try await self.run(Goald.Backup.self, ["backup", "b.sqlite"] + state, in: directory)
        }
        #expect(exists?.code == .fileAccess)
    }

    @Test("token create refuses a state directory without a database and creates nothing there (issue 16 point 11)")
    func tokenCreateNeedsTheDaemonsLeague() async throws {
        let directory = try TemporaryDirectory()
        let refused = await #expect(throws: CommandFailure.self) {
            _ = try await self.run(
                Goald.Token.Create.self,
                ["token", "create", "--name", "bob", "--role", "editor", "--state-dir", directory.file("elsewhere")],
                in: directory
            )
        }
        let message = refused?.description ?? ""
        #expect(message.hasPrefix("no database at \(directory.file("elsewhere/goald.sqlite")); start goald once"))
        #expect(message.contains("give the daemon's, the \"state directory:\" line goald serve prints"))
        #expect(!FileManager.default.fileExists(atPath: directory.file("elsewhere")))
    }

    @Test("the serve banner names the URL, CA, fingerprint, token file and exact connect commands")
    func serveBanner() throws {
        let configuration = ServerConfiguration(host: "0.0.0.0", stateDirectory: "/var/lib/goald")
        var banner = ServeBanner(
            configuration: configuration,
            addresses: DaemonAddresses(host: "0.0.0.0", port: 7443, metricsPort: nil, nodeID: "vm-1a2b3c"),
            fingerprint: String(repeating: "ab", count: 32),
            authorityCertificatePath: "/var/lib/goald/tls/ca.pem",
            firstAdminToken: "SECRET",
            showSecret: false
        )
        var text = banner.lines.joined(separator: "\n")
        #expect(text.contains("goald is listening on wss://127.0.0.1:7443/v1/stream"))
        #expect(text.contains("CA certificate:   /var/lib/goald/tls/ca.pem"))
        #expect(text.contains("  node id:          vm-1a2b3c"))
        #expect(text.contains("TLS fingerprint:  " + String(repeating: "ab", count: 32)))
        #expect(
            text.contains(
                "goal-client login --server wss://127.0.0.1:7443 --ca-file /var/lib/goald/tls/ca.pem < /var/lib/goald/admin-token"
            )
        )
        #expect(!text.contains("SECRET"))
        #expect(text.contains("  or a browser: https://127.0.0.1:7443/  (the league page; trust the CA above"))
        #expect(
            text.contains(
                "More tokens: goald token create --state-dir /var/lib/goald --name NAME --role viewer|editor|admin"
            )
        )
        banner.showSecret = true
        text = banner.lines.joined(separator: "\n")
        #expect(text.contains("new admin token:  SECRET"))
    }
}

/// The commands tests run in process.
protocol GoaldRunnable { func run(in context: CommandContext) async throws }
extension Goald.Token.Create: GoaldRunnable {}
extension Goald.Token.List: GoaldRunnable {}
extension Goald.Token.Revoke: GoaldRunnable {}
extension Goald.CheckConfig: GoaldRunnable {}
extension Goald.Backup: GoaldRunnable {}
extension Goald.Restore: GoaldRunnable {}
