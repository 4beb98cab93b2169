public import GoalModel

/// Reading model values back from any store's columns: revisions (signed 64-bit in every database), digests, ids
/// and stamps, each refused with `StorageError.inconsistent` when the stored text or number is not valid. The
/// SQLite and PostgreSQL stores both use it, so a bad row is named the same way whichever store holds it.
///
/// Stateless; `Sendable`.
public enum StoredValues {
    public static func integer(_ revision: Revision) -> Int64 { Int64(clamping: revision) }

    public static func revision(_ value: Int64) throws(StorageError) -> Revision {
        guard value >= 0 else { throw .inconsistent("negative revision \(value) in the database") }
        return Revision(value)
    }

    public static func digest(_ bytes: [UInt8]) throws(StorageError) -> Digest {
        guard let digest = Digest(bytes: bytes) else {
            throw .inconsistent("a stored digest has \(bytes.count) bytes instead of 32")
        }
        return digest
    }

    public static func instance(_ text: String) throws(StorageError) -> ClientInstanceID {
        guard let id = ClientInstanceID(text) else { throw .inconsistent("invalid client instance id in the database") }
        return id
    }

    public static func playerID(_ text: String) throws(StorageError) -> PlayerID {
        guard let id = PlayerID(text) else { throw .inconsistent("invalid player id \"\(text)\" in the database") }
        return id
    }

    public static func matchID(_ text: String) throws(StorageError) -> MatchID {
        guard let id = MatchID(text) else { throw .inconsistent("invalid match id \"\(text)\" in the database") }
        return id
    }

    public static func stamp(_ revision: Int64, _ writer: String) throws(StorageError) -> FieldStamp {
        FieldStamp(revision: try self.revision(revision), writer: try instance(writer))
    }
}
