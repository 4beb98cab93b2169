import Foundation
import GRDB
import GoalModel

/// Conversions between model values and SQLite columns, and the mapping of GRDB errors to `StorageError`.
enum SQLiteCoding {
    static func blob(_ bytes: [UInt8]) -> Data { Data(bytes) }

    static func integer(_ revision: Revision) -> Int64 { StoredValues.integer(revision) }

    static func revision(_ value: Int64) throws(StorageError) -> Revision { try StoredValues.revision(value) }

    static func digest(_ data: Data) throws(StorageError) -> Digest { try StoredValues.digest([UInt8](data)) }

    static func instance(_ text: String) throws(StorageError) -> ClientInstanceID { try StoredValues.instance(text) }

    static func playerID(_ text: String) throws(StorageError) -> PlayerID { try StoredValues.playerID(text) }

    static func matchID(_ text: String) throws(StorageError) -> MatchID { try StoredValues.matchID(text) }

    static func stamp(_ revision: Int64, _ writer: String) throws(StorageError) -> FieldStamp {
        try StoredValues.stamp(revision, writer)
    }

    /// Maps any error thrown inside a GRDB call; a `StorageError` thrown by our own code passes through.
    static func storageError(_ error: any Error, operation: String, path: String) -> StorageError {
        if let error = error as? StorageError { return error }
        guard let error = error as? DatabaseError else {
            return .database(operation: operation, detail: "\(error)")
        }
        let detail = error.message ?? "\(error.resultCode)"
        switch error.resultCode {
        case .SQLITE_NOTADB: return .notADatabase(path: path)
        case .SQLITE_CORRUPT: return .corrupt(path: path, detail: detail)
        case .SQLITE_CONSTRAINT: return .constraint(operation: operation, detail: detail)
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_READONLY: return .fileAccess(path: path, detail: detail)
        default: return .database(operation: operation, detail: "\(detail) (\(error.resultCode))")
        }
    }
}
