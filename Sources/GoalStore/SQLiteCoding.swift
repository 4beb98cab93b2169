import Foundation
import GRDB
import GoalModel

/// Conversions between model values and SQLite columns, and the mapping of GRDB errors to `StorageError`.
enum SQLiteCoding {
    static func blob(_ bytes: [UInt8]) -> Data { Data(bytes) }

    static func integer(_ revision: Revision) -> Int64 { Int64(clamping: revision) }

    static func revision(_ value: Int64) throws(StorageError) -> Revision {
        guard value >= 0 else { throw .inconsistent("negative revision \(value) in the database") }
        return Revision(value)
    }

    static func digest(_ data: Data) throws(StorageError) -> Digest {
        guard let digest = Digest(bytes: [UInt8](data)) else {
            throw .inconsistent("a stored digest has \(data.count) bytes instead of 32")
        }
        return digest
    }

    static func instance(_ text: String) throws(StorageError) -> ClientInstanceID {
        guard let id = ClientInstanceID(text) else { throw .inconsistent("invalid client instance id in the database") }
        return id
    }

    static func playerID(_ text: String) throws(StorageError) -> PlayerID {
        guard let id = PlayerID(text) else { throw .inconsistent("invalid player id \"\(text)\" in the database") }
        return id
    }

    static func matchID(_ text: String) throws(StorageError) -> MatchID {
        guard let id = MatchID(text) else { throw .inconsistent("invalid match id \"\(text)\" in the database") }
        return id
    }

    static func stamp(_ revision: Int64, _ writer: String) throws(StorageError) -> FieldStamp {
        FieldStamp(revision: try self.revision(revision), writer: try instance(writer))
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
