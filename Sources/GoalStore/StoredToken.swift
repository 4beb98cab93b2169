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
    public var role: Role
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
        revoked: Timestamp? = nil
    ) {
        self.id = id
        self.name = name
        self.role = role
        self.secretHash = secretHash
        self.created = created
        self.revoked = revoked
    }

    /// True once revoked.
    public var isRevoked: Bool { revoked != nil }

    /// The length of a SHA-256 hash.
    public static let hashLength = 32
}
