import ArgumentParser
import Foundation
import GoalClient
import GoalCommandLine
import GoalModel
import GoalReactive
import GoalWire

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `goal-client login`: checks the server URLs (one `--server` per node of the league, in failover order), their
/// trust (CA file or fingerprint), a token and the league (`--league`, else the one saved before, else the default
/// league) by connecting to that league, then saves them in `$XDG_CONFIG_HOME/goal/config.json` (mode 0600). The check succeeds when any of the servers accepts the token (the others may be down for now). The
/// token is read from a prompt (echo off) on a terminal, else from the first line of standard input; never from the
/// command line.
struct Login: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Save the servers, their CA or fingerprint and a token (read from a prompt or stdin).",
        discussion: """
            Give --server once per goald node of the league, in failover order \
            (goal-client login --server wss://a:7443 --server wss://b:7443): every command then uses the first and \
            resumes on the next one when a server is down or the connection is lost.

            --league ID saves the league every command then follows (login checks that the token may see it); \
            --league default goes back to the server's default league. Without --league a league saved before stays.
            """
    )
    @OptionGroup var connection: ConnectionOptions

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let path = ConfigFile.path(environment: environment)
        var file = try ConfigFile.load(from: path)
        let servers = ClientSettings.servers(connection, environment: environment, file: file)
        guard !servers.isEmpty else {
            throw CLIFailure.usage("login needs --server wss://HOST:PORT (goald serve prints it; repeat it per node)")
        }
        let token = try Self.readToken()
        file.servers = servers
        if connection.caFile != nil || connection.fingerprint != nil || connection.insecure {
            file.caFile = connection.caFile.map(Self.absolute)
            file.fingerprint = connection.fingerprint
            file.insecure = connection.insecure
        }
        file.token = token
        if let league = connection.league { file.league = league }
        var check = connection
        check.league = file.league
        check.server = servers
        check.caFile = file.caFile
        check.fingerprint = file.fingerprint
        check.insecure = file.insecure
        let settings = try ClientSettings.resolve(
            check,
            environment: ["GOAL_TOKEN": token, "XDG_CONFIG_HOME": "/nonexistent"]
        )
        let session = try LeagueSession.make(settings, stream: .acks)
        try await session.connect()
        let role = session.client.role.value?.rawValue ?? "unknown"
        session.stop()
        try file.save(to: path)
        let list = TerminalText.escape(servers.joined(separator: ", "))
        let league = settings.league.map { " in league \($0.rawValue)" } ?? ""
        Console.out("logged in to \(list)\(league) as \(role); saved to \(path) (mode 0600)")
    }

    /// A path made absolute against the working directory, so the saved config works from anywhere.
    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// The token: prompted with echo off on a terminal, else the first line of standard input.
    static func readToken() throws(CLIFailure) -> String {
        let interactive = isatty(STDIN_FILENO) == 1
        if interactive {
            Console.prompt("token: ")
        }
        var saved = termios()
        let echoOff = interactive && tcgetattr(STDIN_FILENO, &saved) == 0
        if echoOff {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSANOW, &quiet)
        }
        let line = readLine(strippingNewline: true)
        if echoOff {
            tcsetattr(STDIN_FILENO, TCSANOW, &saved)
            Console.prompt("\n")
        }
        guard let token = line?.trimmingCharacters(in: .whitespaces), !token.isEmpty else {
            throw .usage("no token given: type it at the prompt or pipe it in (echo \"$TOKEN\" | goal-client login …)")
        }
        return token
    }
}
