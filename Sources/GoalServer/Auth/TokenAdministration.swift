import Foundation
public import GoalModel
public import GoalStore

/// Creating, listing and revoking access tokens (`goald token …`) against the SQLite store.
///
/// The secret is shown once, by `create`, and never stored; the store keeps its SHA-256. Names are unique forever
/// (a revoked token keeps its name, since the name authors its changesets). A running daemon notices revocations
/// by watching the tokens table and closes that token's sessions with 4403.
///
/// Value type, `Sendable`; calls do blocking SQLite IO. Safe while the daemon runs (SQLite WAL, one writer at a time).
public struct TokenAdministration: Sendable {
    /// A token just created, with the secret that will never be shown again.
    public struct Created: Sendable {
        public var token: StoredToken
        public var secret: TokenSecret
    }

    /// What `revoke` did.
    public struct Revocation: Sendable, Hashable {
        public var token: StoredToken
        /// True when the token had already been revoked (the call changed nothing).
        public var wasAlreadyRevoked: Bool
    }

    /// The longest token name, in characters.
    public static let maximumNameLength = 64

    private let storage: any LeagueStorage
    private let now: @Sendable () -> Timestamp

    /// - Parameters:
    ///   - storage: The open store.
    ///   - now: The clock stamping `created` and `revoked` (tests pass a fixed one).
    public init(storage: any LeagueStorage, now: @escaping @Sendable () -> Timestamp = TokenAdministration.wallClock) {
        self.storage = storage
        self.now = now
    }

    /// The current wall-clock time.
    public static let wallClock: @Sendable () -> Timestamp = {
        Timestamp(millisecondsSince1970: Int64(Date().timeIntervalSince1970 * 1000))
    }

    /// Creates a token.
    /// - Parameter leagues: The leagues it is confined to, with its role in each; empty (the default): every league,
    ///   with `role`. The caller checks that they exist.
    /// - Returns: The stored token and its secret (show it once).
    /// - Throws: `invalidName`, `nameTaken`, `storage`.
    public func create(
        name: String,
        role: Role,
        leagues: [LeagueSlug: Role] = [:]
    ) throws(TokenAdministrationError) -> Created {
        let name = try Self.validateName(name)
        let secret = TokenSecret.generate()
        let token = StoredToken(name: name, role: role, secretHash: secret.hash, created: now(), leagues: leagues)
        try insert(token)
        return Created(token: token, secret: secret)
    }

    /// Registers an existing secret under `name` (the first admin token when its file survived the database).
    func register(name: String, role: Role, secret: TokenSecret) throws(TokenAdministrationError) -> StoredToken {
        let token = StoredToken(name: try Self.validateName(name), role: role, secretHash: secret.hash, created: now())
        try insert(token)
        return token
    }

    /// Every token, valid and revoked, oldest first. Never secrets.
    public func list() throws(TokenAdministrationError) -> [StoredToken] {
        do {
            return try storage.tokens()
        } catch {
            throw .storage(error)
        }
    }

    /// Revokes the token named `name`; revoking a revoked token changes nothing and says so.
    /// - Throws: `notFound`, `storage`.
    public func revoke(name: String) throws(TokenAdministrationError) -> Revocation {
        let existing = try list().first { $0.name == name }
        guard let existing else { throw .notFound(name) }
        if existing.isRevoked { return Revocation(token: existing, wasAlreadyRevoked: true) }
        do {
            return Revocation(token: try storage.revokeToken(named: name, at: now()), wasAlreadyRevoked: false)
        } catch {
            throw error.code == .tokenNotFound ? .notFound(name) : .storage(error)
        }
    }

    /// Checks a token name: 1–64 characters; ASCII letters, digits, `-`, `_`, `.` and `@`; starting with a letter
    /// or digit. Surrounding whitespace is an error, not trimmed, so the name stored is the name typed.
    /// - Returns: The name.
    /// - Throws: `invalidName` saying which rule and where.
    public static func validateName(_ name: String) throws(TokenAdministrationError) -> String {
        guard !name.isEmpty else { throw .invalidName(name, reason: "it is empty; give 1 to 64 characters") }
        let count = name.count
        guard count <= maximumNameLength else {
            throw .invalidName(name, reason: "it has \(count) characters; at most \(maximumNameLength)")
        }
        for (offset, character) in name.enumerated() {
            let allowed = character.isASCII && (character.isLetter || character.isNumber || "-_.@".contains(character))
            guard allowed else {
                let shown = character.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }
                throw .invalidName(
                    name,
                    reason: "character \(offset + 1) (\(shown.joined(separator: " "))) is not allowed; use ASCII "
                        + "letters, digits, '-', '_', '.' and '@'"
                )
            }
        }
        guard let first = name.first, first.isLetter || first.isNumber else {
            throw .invalidName(name, reason: "it must start with a letter or a digit")
        }
        return name
    }

    private func insert(_ token: StoredToken) throws(TokenAdministrationError) {
        do {
            try storage.createToken(token)
        } catch {
            throw error.code == .tokenNameTaken ? .nameTaken(token.name) : .storage(error)
        }
    }
}
