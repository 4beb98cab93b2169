import GoalStore
import PostgresNIO

/// Maps what postgres-nio and the server report to `StorageError`, naming the operation and the store (never its
/// password). A `StorageError` thrown by our own code passes through.
enum PostgresErrors {
    static func storageError(
        _ error: any Error,
        operation: String,
        configuration: PostgresStoreConfiguration
    ) -> StorageError {
        if let error = error as? StorageError { return error }
        guard let error = error as? PSQLError else {
            // Not from the protocol: the socket (refused, reset, timed out).
            return .unavailable(operation: operation, detail: "PostgreSQL at \(configuration): \(error)")
        }
        guard let info = error.serverInfo else {
            // The connection failed or closed under the call.
            return .unavailable(operation: operation, detail: "PostgreSQL at \(configuration): \(error.code)")
        }
        let state = info[.sqlState] ?? ""
        let message = info[.message] ?? "\(error.code)"
        let detail = info[.detail].map { "\(message) (\($0))" } ?? message
        // Class 23: integrity constraint violations (unique, foreign key, check).
        if state.hasPrefix("23") { return .constraint(operation: operation, detail: detail) }
        if isTransient(sqlState: state) {
            return .unavailable(operation: operation, detail: "PostgreSQL at \(configuration): \(detail) [\(state)]")
        }
        return .databaseServer(operation: operation, detail: "PostgreSQL at \(configuration): \(detail) [\(state)]")
    }

    /// Server errors that end with the server's availability, not the statement: class 08 (connection
    /// exceptions), 57P01–57P03 (shut down, crashed, starting up), 53300 (too many connections), 55000 raised at
    /// connect for a database not accepting connections, 40001/40P01 (serialization failure, deadlock).
    static func isTransient(sqlState state: String) -> Bool {
        state.hasPrefix("08") || ["57P01", "57P02", "57P03", "53300", "55000", "40001", "40P01"].contains(state)
    }

    /// True when `error` is a unique violation (SQLSTATE 23505).
    static func isUniqueViolation(_ error: any Error) -> Bool {
        (error as? PSQLError)?.serverInfo?[.sqlState] == "23505"
    }
}
