import Foundation
public import GoalModel
public import GoalStore
import NIOCore
import PostgresNIO

/// Tokens: only the SHA-256 of each secret is stored; names and hashes are unique.
extension PostgresLeagueStorage {
    public func createToken(_ token: StoredToken) throws(StorageError) {
        guard token.secretHash.count == StoredToken.hashLength else {
            throw .invalidTokenHash(length: token.secretHash.count)
        }
        let hash = ByteBuffer(bytes: token.secretHash)
        try writer.withConnection("createToken(_:)") { connection in
            try connection.transaction {
                if try !connection.run("SELECT 1 FROM tokens WHERE name = \(token.name)").isEmpty {
                    throw StorageError.tokenNameTaken(token.name)
                }
                if try !connection.run("SELECT 1 FROM tokens WHERE secret_hash = \(hash)").isEmpty {
                    throw StorageError.tokenHashTaken
                }
                try Self.insert(token, on: connection)
            }
        }
    }

    public func tokens() throws(StorageError) -> [StoredToken] {
        try reader.withConnection("tokens()") { connection in
            try connection.run(
                "SELECT \(unescaped: Self.tokenColumns) FROM tokens ORDER BY created, name"
            ).map(Self.token(from:))
        }
    }

    public func token(secretHash: [UInt8]) throws(StorageError) -> StoredToken? {
        let hash = ByteBuffer(bytes: secretHash)
        return try reader.withConnection("token(secretHash:)") { connection in
            try connection.run(
                "SELECT \(unescaped: Self.tokenColumns) FROM tokens WHERE secret_hash = \(hash)"
            ).first.map(Self.token(from:))
        }
    }

    public func revokeToken(named name: String, at time: Timestamp) throws(StorageError) -> StoredToken {
        try writer.withConnection("revokeToken(named:at:)") { connection in
            try connection.transaction {
                try connection.execute(
                    """
                    UPDATE tokens SET revoked = \(time.millisecondsSince1970)
                    WHERE name = \(name) AND revoked IS NULL
                    """
                )
                guard
                    let row = try connection.run(
                        "SELECT \(unescaped: Self.tokenColumns) FROM tokens WHERE name = \(name)"
                    ).first
                else {
                    throw StorageError.tokenNotFound(name)
                }
                return try Self.token(from: row)
            }
        }
    }

    /// The columns `token(from:)` reads, in its order.
    private static let tokenColumns = "id, name, role, secret_hash, created, revoked, leagues"

    /// Writes one token row, its league grants as `LeagueGrantsText` (createToken, and the import's copy).
    static func insert(_ token: StoredToken, on connection: PostgresConnection) throws {
        let hash = ByteBuffer(bytes: token.secretHash)
        try connection.execute(
            """
            INSERT INTO tokens (id, name, role, secret_hash, created, revoked, leagues)
            VALUES (\(token.id.uuidString.lowercased()), \(token.name), \(token.role.rawValue), \(hash),
                \(token.created.millisecondsSince1970), \(token.revoked?.millisecondsSince1970),
                \(LeagueGrantsText.format(token.leagues)))
            """
        )
    }

    private static func token(from row: PostgresRow) throws -> StoredToken {
        let (idText, name, roleText, hash, created, revoked, grantsText) = try row.decode(
            (String, String, String, ByteBuffer, Int64, Int64?, String).self
        )
        guard let id = UUID(uuidString: idText), let role = Role(rawValue: roleText) else {
            throw StorageError.inconsistent("token row \(idText) has an invalid id or role")
        }
        let grants: [LeagueSlug: Role]
        do {
            grants = try LeagueGrantsText.parse(grantsText)
        } catch {
            throw StorageError.inconsistent("token row \(idText) has unreadable league grants (\(error))")
        }
        return StoredToken(
            id: id,
            name: name,
            role: role,
            secretHash: PostgresCoding.bytes(hash),
            created: Timestamp(millisecondsSince1970: created),
            revoked: revoked.map(Timestamp.init(millisecondsSince1970:)),
            leagues: grants
        )
    }
}
