public import Foundation
public import GoalModel

/// An access token as the store keeps it: never the secret, only its SHA-256 hash (computed by the caller).
///
/// Names are unique. Value type, `Sendable`.
public struct StoredToken: Hashable, Sendable {
    /// The token's id.
    public var id: UUID
    /// The unique name; the author of the changesets its sessions commit.
    public var name: String
    /// The role in every league when `leagues` is empty; otherwise the highest role of `leagues` (for listings).
    public var role: Role
    /// The leagues the token is confined to, with its role in each; empty: every league, with `role`.
    public var leagues: [LeagueSlug: Role]
    /// SHA-256 of the secret: exactly 32 bytes.
    public var secretHash: [UInt8]
    public var created: Timestamp
    /// When it was revoked; nil while it is valid.
    public var revoked: Timestamp?

    public init(
        id: UUID = UUID(),
        name: String,
        role: Role,
        secretHash: [UInt8],
        created: Timestamp,
        revoked: Timestamp? = nil,
        leagues: [LeagueSlug: Role] = [:]
    ) {
        self.id = id
        self.name = name
        self.role = leagues.values.max() ?? role
        self.leagues = leagues
        self.secretHash = secretHash
        self.created = created
        self.revoked = revoked
    }

    /// The token's role in `league`, or nil when it is not allowed there.
    public func role(in league: LeagueSlug) -> Role? { leagues.isEmpty ? role : leagues[league] }

    /// An admin of every league: may create, rename and delete leagues and manage tokens.
    public var isOperator: Bool { leagues.isEmpty && role == .admin }

    /// True once revoked.
    public var isRevoked: Bool { revoked != nil }

    /// The length of a SHA-256 hash.
    public static let hashLength = 32
}
