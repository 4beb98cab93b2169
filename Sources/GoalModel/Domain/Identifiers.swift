public import Foundation

/// A commit's position in the league's history: 1, 2, 3 … with no gaps; 0 is the empty league.
public typealias Revision = UInt64

/// The identity of a player: a UUID minted by whoever creates the player (usually the client).
///
/// Value type, `Sendable`; compares and hashes by the UUID.
public struct PlayerID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The UUID this id wraps.
    public let uuid: UUID

    /// Wraps an existing UUID.
    public init(_ uuid: UUID) { self.uuid = uuid }

    /// Mints a fresh random id.
    public init() { self.uuid = UUID() }

    /// Parses the canonical textual form (case-insensitive, `UUIDText`); nil when it is not a UUID.
    public init?(_ text: String) {
        guard let uuid = UUIDText.parse(text) else { return nil }
        self.uuid = uuid
    }

    /// The lowercase canonical text, as it travels on the wire.
    public var description: String { UUIDText.lowercase(uuid) }

    /// The first 8 hex digits, the short id shown to people.
    public var shortID: String { String(description.prefix(8)) }

    /// Orders like `description` (lowercase hex compares like the bytes it spells) without formatting strings.
    public static func < (lhs: PlayerID, rhs: PlayerID) -> Bool { uuidPrecedes(lhs.uuid, rhs.uuid) }
}

/// The identity of a match: a UUID minted by whoever creates the match.
///
/// Value type, `Sendable`; compares and hashes by the UUID.
public struct MatchID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The UUID this id wraps.
    public let uuid: UUID

    /// Wraps an existing UUID.
    public init(_ uuid: UUID) { self.uuid = uuid }

    /// Mints a fresh random id.
    public init() { self.uuid = UUID() }

    /// Parses the canonical textual form (case-insensitive, `UUIDText`); nil when it is not a UUID.
    public init?(_ text: String) {
        guard let uuid = UUIDText.parse(text) else { return nil }
        self.uuid = uuid
    }

    /// The lowercase canonical text, as it travels on the wire.
    public var description: String { UUIDText.lowercase(uuid) }

    /// The first 8 hex digits, the short id shown to people.
    public var shortID: String { String(description.prefix(8)) }

    /// Orders like `description` (lowercase hex compares like the bytes it spells) without formatting strings.
    public static func < (lhs: MatchID, rhs: MatchID) -> Bool { uuidPrecedes(lhs.uuid, rhs.uuid) }
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
