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
            return .database(operation: operation, detail: "PostgreSQL at \(configuration): \(error)")
        }
        guard let info = error.serverInfo else {
            return .database(operation: operation, detail: "PostgreSQL at \(configuration): \(error.code)")
        }
        let state = info[.sqlState] ?? ""
        let message = info[.message] ?? "\(error.code)"
        let detail = info[.detail].map { "\(message) (\($0))" } ?? message
        // Class 23: integrity constraint violations (unique, foreign key, check).
        if state.hasPrefix("23") { return .constraint(operation: operation, detail: detail) }
        return .database(operation: operation, detail: "\(detail) [SQLSTATE \(state)]")
    }

    /// True when `error` is a unique violation (SQLSTATE 23505).
    static func isUniqueViolation(_ error: any Error) -> Bool {
        (error as? PSQLError)?.serverInfo?[.sqlState] == "23505"
    }
}
