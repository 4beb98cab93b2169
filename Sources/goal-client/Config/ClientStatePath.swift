import Crypto
import Foundation
import GoalModel

/// Where goal-client keeps its state between runs (the last league it saw, queued edits, its client instances):
/// `$XDG_STATE_HOME/goal-client/` (else `~/.local/state/goal-client/`, mode 0700), one SQLite file per login and
/// league, named by a SHA-256 of the servers and the token (never the token itself): `league-<16 hex>.sqlite` for the
/// default league (the name it had before leagues, so an upgrade keeps the replica and the outbox) and
/// `league-<16 hex>-<league id>.sqlite` for any other. Another server list, token or league is another league view,
/// another outbox, other client instances: one league's outbox is never replayed into another (the file also names
/// its league, `SQLiteClientStateStore`).
///
/// Pure functions (plus creating the directory); thread-safe.
enum ClientStatePath {
    /// The state directory for this environment.
    static func directory(environment: [String: String]) -> String {
        if let xdg = environment["XDG_STATE_HOME"], !xdg.isEmpty { return xdg + "/goal-client" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state/goal-client"
    }

    /// The database file of this login and league.
    static func database(for settings: ClientSettings, environment: [String: String]) -> String {
        let identity = "goal-client state v1\n" + settings.serverURLs.joined(separator: "\n") + "\n" + settings.token
        let hex = SHA256.hash(data: Data(identity.utf8)).prefix(8).map { String(format: "%02x", $0) }.joined()
        let suffix = settings.league.map { $0.isDefault ? "" : "-\($0.rawValue)" } ?? ""
        return directory(environment: environment) + "/league-\(hex)\(suffix).sqlite"
    }

    /// Creates the state directory (and its parents) with mode 0700.
    /// - Throws: `CLIFailure.usage` naming the directory when it cannot be created.
    static func createDirectory(environment: [String: String]) throws(CLIFailure) {
        let path = directory(environment: environment)
        do {
            try FileManager.default.createDirectory(
                atPath: path,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
        } catch {
            throw .usage("cannot create the state directory \(path): \(error.localizedDescription)")
        }
    }
}
