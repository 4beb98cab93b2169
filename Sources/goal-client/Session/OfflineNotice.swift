import Foundation
import GoalClient

/// The one line a command prints on standard error when it shows the saved league because no server answered:
/// "goal-client: offline: showing the league as of r12, last synced 2026-11-26 21:40:03 UTC (cannot reach
/// wss://a:7443); 1 queued edit not sent yet". A TLS failure says so instead of "cannot reach". Pure function;
/// thread-safe.
enum OfflineNotice {
    static func line(replica: ReplicaState, syncedAt: Date?, server: String, tls: Bool, queued: Int) -> String {
        var line = "goal-client: offline: showing the league as of r\(replica.revision)"
        if let syncedAt { line += ", last synced \(timestamp(syncedAt))" }
        line +=
            tls
            ? " (TLS failed with \(server); check --ca-file / --fingerprint)" : " (cannot reach \(server))"
        if queued > 0 { line += "; \(queued) queued edit\(queued == 1 ? "" : "s") not sent yet" }
        return line
    }

    /// "2026-11-26 21:40:03 UTC".
    static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss 'UTC'"
        return formatter.string(from: date)
    }
}
