import Foundation
import GRDB
public import GoalModel

/// Tokens: only the SHA-256 of each secret is stored; names and hashes are unique. A token's league grants are one
/// `LeagueGrantsText` column (`leagues`, "" for a token of every league).
extension SQLiteLeagueStorage {
    public func createToken(_ token: StoredToken) throws(StorageError) {
        guard token.secretHash.count == StoredToken.hashLength else {
            throw .invalidTokenHash(length: token.secretHash.count)
        }
        try run("createToken(_:)") {
            try pool.write { db in
                if try Bool.fetchOne(db, sql: "SELECT 1 FROM tokens WHERE name = ?", arguments: [token.name]) == true {
                    throw StorageError.tokenNameTaken(token.name)
                }
                let hash = SQLiteCoding.blob(token.secretHash)
                if try Bool.fetchOne(db, sql: "SELECT 1 FROM tokens WHERE secret_hash = ?", arguments: [hash]) == true {
                    throw StorageError.tokenHashTaken
                }
                try db.execute(
                    sql: """
                        INSERT INTO tokens (id, name, role, secret_hash, created, revoked, leagues)
                        VALUES (?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        token.id.uuidString.lowercased(), token.name, token.role.rawValue, hash,
                        token.created.millisecondsSince1970, token.revoked?.millisecondsSince1970,
                        LeagueGrantsText.format(token.leagues),
                    ]
                )
            }
        }
    }

    public func tokens() throws(StorageError) -> [StoredToken] {
        try run("tokens()") {
            try pool.read { db in
                try Row.fetchAll(db, sql: "\(Self.tokenColumns) ORDER BY created, name").map(Self.token(from:))
            }
        }
    }

    public func token(secretHash: [UInt8]) throws(StorageError) -> StoredToken? {
        try run("token(secretHash:)") {
            try pool.read { db in
                try Row.fetchOne(
                    db,
                    sql: "\(Self.tokenColumns) WHERE secret_hash = ?",
                    arguments: [SQLiteCoding.blob(secretHash)]
                ).map(Self.token(from:))
            }
        }
    }

    public func revokeToken(named name: String, at time: Timestamp) throws(StorageError) -> StoredToken {
        try run("revokeToken(named:at:)") {
            try pool.write { db in
                try db.execute(
                    sql: "UPDATE tokens SET revoked = ? WHERE name = ? AND revoked IS NULL",
                    arguments: [time.millisecondsSince1970, name]
                )
                guard let row = try Row.fetchOne(db, sql: "\(Self.tokenColumns) WHERE name = ?", arguments: [name])
                else {
                    throw StorageError.tokenNotFound(name)
                }
                return try Self.token(from: row)
            }
        }
    }

    private static let tokenColumns = "SELECT id, name, role, secret_hash, created, revoked, leagues FROM tokens"

    private static func token(from row: Row) throws -> StoredToken {
        let idText: String = try row.decode(atIndex: 0)
        let roleText: String = try row.decode(atIndex: 2)
        guard let id = UUID(uuidString: idText), let role = Role(rawValue: roleText) else {
            throw StorageError.inconsistent("token row \(idText) has an invalid id or role")
        }
        let leagues: [LeagueSlug: Role]
        do {
            leagues = try LeagueGrantsText.parse(try row.decode(String.self, atIndex: 6))
        } catch {
            throw StorageError.inconsistent("token row \(idText) has invalid leagues: \(error)")
        }
        return StoredToken(
            id: id,
            name: try row.decode(atIndex: 1),
            role: role,
            secretHash: [UInt8](try row.decode(Data.self, atIndex: 3)),
            created: Timestamp(millisecondsSince1970: try row.decode(atIndex: 4)),
            revoked: try row.decode(Int64?.self, atIndex: 5).map(Timestamp.init(millisecondsSince1970:)),
            leagues: leagues
        )
    }
}
