import GoalModel
import GoalStore
import NIOCore

/// Conversions between model values and PostgreSQL columns (BIGINT revisions, BYTEA digests and frames).
enum PostgresCoding {
    static func integer(_ revision: Revision) -> Int64 { Int64(clamping: revision) }

    static func revision(_ value: Int64) throws(StorageError) -> Revision {
        guard value >= 0 else { throw .inconsistent("negative revision \(value) in the database") }
        return Revision(value)
    }

    static func bytes(_ buffer: ByteBuffer) -> [UInt8] {
        buffer.getBytes(at: buffer.readerIndex, length: buffer.readableBytes) ?? []
    }

    static func digest(_ buffer: ByteBuffer) throws(StorageError) -> Digest {
        guard let digest = Digest(bytes: bytes(buffer)) else {
            throw .inconsistent("a stored digest has \(buffer.readableBytes) bytes instead of 32")
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
}
