public import Foundation

/// A commit's position in the league's history: 1, 2, 3 … with no gaps; 0 is the empty league.
public typealias Revision = UInt64

/// An entity's identity: a UUID minted by whoever creates the entity (usually the client), compared and hashed by
/// the UUID, written on the wire in its lowercase canonical form. `PlayerID` and `MatchID` are the two; the
/// protocol gives both the same parsing, text and order, while keeping them distinct types.
public protocol EntityIdentifier: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The UUID this id wraps.
    var uuid: UUID { get }

    /// Wraps an existing UUID.
    init(_ uuid: UUID)
}

extension EntityIdentifier {
    /// Mints a fresh random id.
    public init() { self.init(UUID()) }

    /// Parses the canonical textual form (case-insensitive, `UUIDText`); nil when it is not a UUID.
    public init?(_ text: String) {
        guard let uuid = UUIDText.parse(text) else { return nil }
        self.init(uuid)
    }

    /// The lowercase canonical text, as it travels on the wire.
    public var description: String { UUIDText.lowercase(uuid) }

    /// The first 8 hex digits, the short id shown to people.
    public var shortID: String { String(description.prefix(8)) }

    /// Orders like `description` (lowercase hex compares like the bytes it spells) without formatting strings.
    public static func < (lhs: Self, rhs: Self) -> Bool { uuidPrecedes(lhs.uuid, rhs.uuid) }
}

/// The identity of a player (`EntityIdentifier`). Value type, `Sendable`.
public struct PlayerID: EntityIdentifier {
    public let uuid: UUID

    public init(_ uuid: UUID) { self.uuid = uuid }
}

/// The identity of a match (`EntityIdentifier`). Value type, `Sendable`.
public struct MatchID: EntityIdentifier {
    public let uuid: UUID

    public init(_ uuid: UUID) { self.uuid = uuid }
}

/// Byte-wise order of two UUIDs: the order of their canonical textual forms in one case.
func uuidPrecedes(_ lhs: UUID, _ rhs: UUID) -> Bool {
    withUnsafeBytes(of: lhs.uuid) { left in
        withUnsafeBytes(of: rhs.uuid) { right in
            left.lexicographicallyPrecedes(right)
        }
    }
}

/// The identity of one running client (one `goal-client` process, one view-model stack).
///
/// It scopes exactly-once delivery: mutation ids are (instance, seq). An opaque, non-empty string of at most
/// 64 characters; clients normally use a random UUID kept for the life of the process.
public struct ClientInstanceID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The opaque text.
    public let rawValue: String

    /// Wraps text as an instance id; nil when empty or longer than 64 characters.
    public init?(_ rawValue: String) {
        guard !rawValue.isEmpty, rawValue.utf8.count <= 64 else { return nil }
        self.rawValue = rawValue
    }

    /// A fresh random instance id.
    public static func random() -> ClientInstanceID {
        ClientInstanceID(UUIDText.lowercase(UUID()))!
    }

    /// The instance the server itself uses for changes no client asked for (e.g. a restore).
    public static let server = ClientInstanceID("server")!

    public var description: String { rawValue }

    public static func < (lhs: ClientInstanceID, rhs: ClientInstanceID) -> Bool { lhs.rawValue < rhs.rawValue }
}
