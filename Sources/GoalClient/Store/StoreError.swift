/// Why a `LeagueStore` could not refresh. Value type, `Sendable`; `description` tells the user what happened.
public struct StoreError: Error, Hashable, Sendable, CustomStringConvertible {
    public let description: String

    /// An error with a message for people.
    public init(_ message: String) {
        description = message
    }

    /// The client stopped before it was live again.
    public static func stopped(_ reason: StopReason) -> StoreError {
        StoreError("not connected: \(reason)")
    }
}
