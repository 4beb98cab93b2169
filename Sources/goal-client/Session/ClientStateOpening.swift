import Foundation
import GoalClient
import GoalClientSQLite
import GoalCommandLine
import GoalModel

/// Opens this login's persisted client state for its league (`ClientStatePath`) and takes an instance slot: the first free one,
/// or — when every slot is held by other goal-client processes — waits for one, saying so on standard error.
enum ClientStateOpening {
    /// - Throws: `CLIFailure.usage` when the state directory or file cannot be created, opened or read.
    static func open(
        _ settings: ClientSettings,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(CLIFailure) -> SQLiteClientStateStore {
        try ClientStatePath.createDirectory(environment: environment)
        let path = ClientStatePath.database(for: settings, environment: environment)
        let league = settings.league ?? .default
        do {
            do {
                return try SQLiteClientStateStore.open(path: path, league: league, waitWhenBusy: false)
            } catch  where error.isBusy {
                Console.error(
                    "goal-client: \(SQLiteClientStateStore.defaultSlotCount) other goal-client processes use this "
                        + "login; waiting for one to end"
                )
                return try SQLiteClientStateStore.open(path: path, league: league, waitWhenBusy: true)
            }
        } catch {
            throw .usage("\(error); remove \(path) to start afresh (queued edits in it are lost)")
        }
    }
}
