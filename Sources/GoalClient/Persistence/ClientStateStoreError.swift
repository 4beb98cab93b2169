/// Why a `ClientStateStore` could not read or write its state. Value type, `Sendable`; `description` names the
/// operation and what went wrong.
public struct ClientStateStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Kind: Hashable, Sendable {
        case unreadable
        case io
        case busy
    }

    private let kind: Kind
    /// What the store was doing and why it failed.
    public let detail: String

    private init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    /// The saved state cannot be read (a damaged or foreign file, bytes that do not decode).
    public static func unreadable(_ detail: String) -> ClientStateStoreError { .init(.unreadable, detail) }
    /// Reading or writing failed (disk, permissions, SQLite).
    public static func io(_ detail: String) -> ClientStateStoreError { .init(.io, detail) }
    /// Every instance slot is held by another process.
    public static func busy(_ detail: String) -> ClientStateStoreError { .init(.busy, detail) }

    /// True when every slot is held by other processes.
    public var isBusy: Bool { kind == .busy }

    public var description: String {
        switch kind {
        case .unreadable: "client state unreadable: \(detail)"
        case .io: "client state: \(detail)"
        case .busy: "client state busy: \(detail)"
        }
    }
}
