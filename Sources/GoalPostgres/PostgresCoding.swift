import GoalModel
import GoalStore
import GoalWire
import NIOCore

/// The PostgreSQL side of column conversions (BYTEA as `ByteBuffer`); the model values themselves are read by
/// GoalStore's `StoredValues`, as for SQLite.
enum PostgresCoding {
    static func integer(_ revision: Revision) -> Int64 { StoredValues.integer(revision) }

    static func revision(_ value: Int64) throws(StorageError) -> Revision { try StoredValues.revision(value) }

    static func bytes(_ buffer: ByteBuffer) -> [UInt8] {
        buffer.getBytes(at: buffer.readerIndex, length: buffer.readableBytes) ?? []
    }

    static func digest(_ buffer: ByteBuffer) throws(StorageError) -> Digest { try StoredValues.digest(bytes(buffer)) }

    static func instance(_ text: String) throws(StorageError) -> ClientInstanceID { try StoredValues.instance(text) }

    static func playerID(_ text: String) throws(StorageError) -> PlayerID { try StoredValues.playerID(text) }

    static func matchID(_ text: String) throws(StorageError) -> MatchID { try StoredValues.matchID(text) }

    static func stamp(_ revision: Int64, _ writer: String) throws(StorageError) -> FieldStamp {
        try StoredValues.stamp(revision, writer)
    }

    /// A log row from its stored frame: the changeset is read from the frame itself.
    /// - Parameter source: Names the log in the error ("the source", "the store").
    static func commit(of frame: LogFrame, in source: String) throws(StorageError) -> LoggedCommit {
        let message: ServerMessage
        do {
            message = try ServerMessage.decode(frame.bytes)
        } catch {
            throw StorageError.inconsistent("\(source)'s frame of revision \(frame.revision) cannot be read: \(error)")
        }
        guard case .changeset(let changeset) = message, changeset.revision == frame.revision else {
            throw StorageError.inconsistent("\(source)'s frame of revision \(frame.revision) is not its changeset")
        }
        return LoggedCommit(changeset: changeset, frame: frame.bytes)
    }
}
