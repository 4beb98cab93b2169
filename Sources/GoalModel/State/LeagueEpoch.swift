import Foundation

/// The identity of one database's history: a random id made with the database and replaced by `goald restore`.
///
/// Clients send the epoch they last saw; a different one means their revisions belong to another history and
/// they need a snapshot. Value type, `Sendable`.
public struct LeagueEpoch: Hashable, Sendable, CustomStringConvertible {
    /// The opaque text (a lowercase UUID for epochs this store makes).
    public let rawValue: String

    /// Wraps stored or received text.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A fresh random epoch.
    public static func random() -> LeagueEpoch { LeagueEpoch(rawValue: UUID().uuidString.lowercased()) }

    public var description: String { rawValue }
}
