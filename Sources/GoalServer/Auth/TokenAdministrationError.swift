public import GoalStore

/// Why a token could not be created, listed or revoked. Every message says what to do.
///
/// Value type, `Sendable`; compare `code` to tell kinds apart.
public struct TokenAdministrationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure, stable for matching.
    public enum Code: String, Hashable, Sendable {
        case invalidName = "invalid_name"
        case nameTaken = "name_taken"
        case notFound = "not_found"
        case adminTokenFile = "admin_token_file"
        case storage
    }

    private enum Kind: Hashable, Sendable {
        case invalidName(name: String, reason: String)
        case nameTaken(String)
        case notFound(String)
        case adminTokenFile(path: String, reason: String)
        case storage(StorageError)
    }

    private let kind: Kind

    private init(_ kind: Kind) { self.kind = kind }

    /// The name breaks a naming rule (`TokenAdministration.validateName`).
    public static func invalidName(_ name: String, reason: String) -> TokenAdministrationError {
        TokenAdministrationError(.invalidName(name: name, reason: reason))
    }
    /// Another token (valid or revoked) has this name.
    public static func nameTaken(_ name: String) -> TokenAdministrationError {
        TokenAdministrationError(.nameTaken(name))
    }
    /// No token has this name.
    public static func notFound(_ name: String) -> TokenAdministrationError {
        TokenAdministrationError(.notFound(name))
    }
    /// The first admin token's file could not be written or is unsafe.
    public static func adminTokenFile(path: String, reason: String) -> TokenAdministrationError {
        TokenAdministrationError(.adminTokenFile(path: path, reason: reason))
    }
    /// The store failed.
    public static func storage(_ error: StorageError) -> TokenAdministrationError {
        TokenAdministrationError(.storage(error))
    }

    public var code: Code {
        switch kind {
        case .invalidName: .invalidName
        case .nameTaken: .nameTaken
        case .notFound: .notFound
        case .adminTokenFile: .adminTokenFile
        case .storage: .storage
        }
    }

    public var description: String {
        switch kind {
        case .invalidName(let name, let reason):
            "invalid token name \"\(name.debugDescription.dropFirst().dropLast())\": \(reason)"
        case .nameTaken(let name):
            "a token named \"\(name)\" already exists (names stay taken after revoking, since they author "
                + "changesets); choose another name"
        case .notFound(let name):
            "no token is named \"\(name)\"; `goald token list` shows the names"
        case .adminTokenFile(let path, let reason):
            "admin token file \(path): \(reason)"
        case .storage(let error):
            error.description
        }
    }
}
