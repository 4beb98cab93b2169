import Foundation
import GoalClient
import GoalClientSQLite
import GoalCommandLine

/// Opens this login's persisted client state (`ClientStatePath`) and takes an instance slot: the first free one,
/// or — when every slot is held by other goal-client processes — waits for one, saying so on standard error.
enum ClientStateOpening {
    /// - Throws: `CLIFailure.usage` when the state directory or file cannot be created, opened or read.
    static func open(
        _ settings: ClientSettings,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(CLIFailure) -> SQLiteClientStateStore {
        try ClientStatePath.createDirectory(environment: environment)
        let path = ClientStatePath.database(for: settings, environment: environment)
        do {
            do {
                return try SQLiteClientStateStore.open(path: path, waitWhenBusy: false)
            } catch  where error.isBusy {
                Console.error(
                    "goal-client: \(SQLiteClientStateStore.defaultSlotCount) other goal-client processes use this "
                        + "login; waiting for one to end"
                )
                return try SQLiteClientStateStore.open(path: path, waitWhenBusy: true)
            }
        } catch {
            throw .usage("\(error); remove \(path) to start afresh (queued edits in it are lost)")
        }
    }
}
