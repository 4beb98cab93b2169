public import Foundation

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

    /// The connection attempt failed; the client retries by itself after `delay` seconds.
    public static func unreachable(_ server: String, retryIn delay: TimeInterval) -> StoreError {
        let tenths = Int((delay * 10).rounded())
        return StoreError("cannot reach \(server); retrying in \(tenths / 10).\(tenths % 10) s")
    }
}
