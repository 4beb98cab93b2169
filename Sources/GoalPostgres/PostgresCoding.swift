import GoalModel
import GoalStore
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
}
