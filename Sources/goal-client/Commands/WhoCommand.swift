import ArgumentParser
import Foundation
import GoalClient
import GoalCommandLine
import GoalModel
import GoalReactive
import GoalWire

/// `goal-client who`: connects once (without being listed itself) and prints who is in the league: each member's
/// name, state (`online`, `viewing`, `editing`), the match it views or edits, its goald node and since when.
/// `--json` prints one object for scripts. Exit codes as every command (3 cannot connect, 4 unauthorized).
struct Who: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show who is connected to the league and what they edit.")
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        try await CommandSession.run(connection, offline: .refused) { session, _ async throws(CLIFailure) in
            guard await Self.waitForPresence(session.client) else {
                throw .cannotConnect("the server sent no presence list; is it older than this goal-client?")
            }
            let members = session.client.presence.value
            if output.json {
                Console.out(JSONDocument.object([("members", .array(members.map(Self.json)))]).text)
            } else if members.isEmpty {
                Console.out("nobody is connected")
            } else {
                let rows = members.map { member in
                    [
                        TerminalText.escape(member.name), member.activity.kind.rawValue,
                        member.activity.matchID?.shortID ?? "-", TerminalText.escape(member.node),
                        member.since.iso8601,
                    ]
                }
                TextTable(header: ["NAME", "STATE", "MATCH", "NODE", "SINCE"], rows: rows).lines.forEach(Console.out)
            }
        }
    }

    /// Waits (up to 10 s) for the connection's presence list.
    private static func waitForPresence(_ client: GoalClient) async -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if client.presenceKnown.value { return true }
            try? await Task.sleep(for: .milliseconds(20))  // cancelled: the deadline still ends the wait
        }
        return client.presenceKnown.value
    }

    static func json(_ member: PresenceMember) -> JSONDocument {
        .object([
            ("name", .string(member.name)),
            ("state", .string(member.activity.kind.rawValue)),
            ("match", member.activity.matchID.map { .string($0.description) } ?? .null),
            ("node", .string(member.node)),
            ("since", .string(member.since.iso8601)),
            ("client_instance", .string(member.clientInstance.rawValue)),
            ("id", .string(member.id)),
        ])
    }
}
