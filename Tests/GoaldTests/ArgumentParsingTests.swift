import ArgumentParser
import GoalTestSlots
import Testing

@testable import goald

@Suite("goald argument parsing", .slotted)
struct ArgumentParsingTests {
    @Test("no subcommand means serve")
    func defaultIsServe() throws {
        let command = try Goald.parseAsRoot([])
        #expect(command is Goald.Serve)
        let withFlags = try #require(
            try Goald.parseAsRoot(["--port", "8443", "--public-host", "a.example", "--public-host", "192.0.2.1"])
                as? Goald.Serve
        )
        #expect(withFlags.serve.port == 8443)
        #expect(withFlags.serve.publicHosts == ["a.example", "192.0.2.1"])
    }

    @Test("serve options: every dedicated flag parses")
    func serveFlags() throws {
        let serve = try #require(
            try Goald.parseAsRoot([
                "serve", "--host", "0.0.0.0", "--port", "0", "--state-dir", "/tmp/s", "--config", "g.yaml",
                "--tls-certificate", "c.pem", "--tls-private-key", "k.pem", "--metrics", "--metrics-host", "::1",
                "--metrics-port", "9000", "--log-level", "debug", "--log-format", "json",
                "--set", "limits.maxConnectionsPerIP=64",
            ]) as? Goald.Serve
        )
        #expect(serve.serve.host == "0.0.0.0")
        #expect(serve.state.stateDirectory == "/tmp/s")
        #expect(serve.state.configFile == "g.yaml")
        #expect(serve.serve.metrics == true)
        #expect(serve.serve.metricsPort == 9000)
        #expect(serve.serve.logFormat == "json")
        #expect(serve.state.overrides == ["limits.maxConnectionsPerIP=64"])
        let off = try #require(try Goald.parseAsRoot(["--no-metrics"]) as? Goald.Serve)
        #expect(off.serve.metrics == false)
    }

    @Test("token subcommands parse names, roles and flags")
    func tokenCommands() throws {
        let create = try #require(
            try Goald.parseAsRoot(["token", "create", "--name", "alice", "--role", "editor"]) as? Goald.Token.Create
        )
        #expect(create.name == "alice")
        #expect(create.role == .editor)
        let list = try #require(try Goald.parseAsRoot(["token", "list", "--json"]) as? Goald.Token.List)
        #expect(list.json)
        let revoke = try #require(try Goald.parseAsRoot(["token", "revoke", "alice"]) as? Goald.Token.Revoke)
        #expect(revoke.name == "alice")
        #expect(try Goald.parseAsRoot(["backup", "/tmp/b.sqlite"]) is Goald.Backup)
        #expect(try Goald.parseAsRoot(["restore", "/tmp/b.sqlite"]) is Goald.Restore)
        #expect(try Goald.parseAsRoot(["check-config", "--port", "1"]) is Goald.CheckConfig)
    }

    @Test(
        "bad input is refused with a precise message",
        arguments: [
            (["--port", "70000"], "--port 70000 is out of range; allowed: 0…65535"),
            (["--port", "x"], "The value 'x' is invalid for '--port <port>'"),
            (
                ["--tls-certificate", "c.pem"],
                "--tls-certificate and --tls-private-key go together; give both or neither"
            ),
            (["--log-format", "xml"], "--log-format xml: expected text or json"),
            (
                ["--log-level", "loud"],
                "--log-level loud: expected one of trace, debug, info, notice, warning, error, critical"
            ),
            (["--set", "limits.maxConnectionsPerIP"], "--set limits.maxConnectionsPerIP: expected KEY=VALUE"),
            (
                ["--set", "limits.nope=1"],
                "--set limits.nope=1: unknown key \"limits.nope\"; `goald --help` lists the keys"
            ),
            (["--set", "limits.maxconnectionsperip=1"], "(did you mean limits.maxConnectionsPerIP?)"),
            (["--set", "port=abc"], "--set port=abc: \"abc\" is not an integer"),
            (
                ["--set", "tls.privateKeyPEM=x"],
                "--set tls.privateKeyPEM: secrets are not accepted on the command line"
            ),
            (["token", "create", "--name", "alice"], "Missing expected argument '--role <role>'"),
            (
                ["token", "create", "--name", "alice", "--role", "owner"],
                "The value 'owner' is invalid for '--role <role>'"
            ),
            (["token", "create", "--name", "_x", "--role", "admin"], "it must start with a letter or a digit"),
            (["token", "create", "--name", "al ice", "--role", "admin"], "character 3 (U+20) is not allowed"),
            (["token", "revoke"], "Missing expected argument '<name>'"),
            (["backup"], "Missing expected argument '<file>'"),
        ] as [([String], String)]
    )
    func badInput(arguments: [String], expected: String) {
        do {
            _ = try Goald.parseAsRoot(arguments)
            Issue.record("\(arguments) parsed")
        } catch {
            let message = Goald.message(for: error)
            #expect(message.contains(expected), "\(arguments): \(message)")
        }
    }

    @Test("help explains every flag and lists every key with its default and environment variable")
    func helpText() {
        let root = Goald.helpMessage()
        for setting in GoaldSettings.all {
            #expect(root.contains("  \(setting.key)  "), "root help lacks \(setting.key)")
        }
        let serve = Goald.helpMessage(for: Goald.Serve.self)
        for flag in [
            "--host", "--port", "--state-dir", "--public-host", "--tls-certificate", "--tls-private-key", "--metrics",
            "--metrics-host", "--metrics-port", "--log-level", "--log-format", "--config", "--set",
        ] {
            #expect(serve.contains(flag), "serve help lacks \(flag)")
        }
        #expect(serve.contains("default: 7443; env GOALD_PORT"))
        #expect(serve.contains("default: 127.0.0.1; env GOALD_HOST"))
        #expect(Goald.helpMessage(for: Goald.Token.Create.self).contains("--role"))
    }
}
