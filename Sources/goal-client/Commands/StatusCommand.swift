import ArgumentParser
import Foundation
import GoalClient
import GoalCommandLine
import GoalModel
import GoalReactive
import GoalWire

/// `goal-client status`: connects once and reports the server it got to (with several servers, the first that
/// answered), the goald node behind it (`welcome.node`) and the protocol version it speaks, the role of the token, the revision, epoch and digest of
/// the league, its size, and how long connecting and syncing took.
struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Connect once and show the server and league state.")
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let started = Date()
        try await CommandSession.run(connection, offline: .refused) { session, lookup async throws(CLIFailure) in
            let elapsed = Int((Date().timeIntervalSince(started) * 1000).rounded())
            let replica = lookup.replica
            let role = session.client.role.value?.rawValue ?? "unknown"
            let server = session.client.server.value
            if output.json {
                Console.out(
                    JSONDocument.object([
                        ("server", .string(server.name)),
                        ("node", server.node.map(JSONDocument.string) ?? .null),
                        ("protocol", server.protocolVersion.map(JSONDocument.int) ?? .null),
                        ("servers", .array(session.client.configuration.servers.map(JSONDocument.string))),
                        ("connection", .string("live")),
                        ("role", .string(role)),
                        ("revision", .uint(replica.revision)),
                        ("epoch", replica.epoch.map { JSONDocument.string($0.rawValue) } ?? .null),
                        ("digest", .string(replica.digest.description)),
                        ("players", .int(replica.players.count)),
                        ("matches", .int(replica.matches.count)),
                        ("sync_ms", .int(elapsed)),
                    ]).text
                )
            } else {
                let lines = [
                    ["server", TerminalText.escape(server.name)],
                    ["node", TerminalText.escape(server.node ?? "-")],
                    ["protocol", server.protocolVersion.map(String.init) ?? "-"],
                    ["connection", "live"],
                    ["role", role],
                    ["revision", "r\(replica.revision)"],
                    ["epoch", TerminalText.escape(replica.epoch?.rawValue ?? "-")],
                    ["digest", replica.digest.description],
                    ["players", "\(replica.players.count)"],
                    ["matches", "\(replica.matches.count)"],
                    ["sync", "\(elapsed) ms"],
                ]
                TextTable(header: ["", ""], rows: lines).lines.dropFirst().forEach(Console.out)
            }
        }
    }
}
