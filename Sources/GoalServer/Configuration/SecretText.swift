/// Text that must never be printed or logged: a private key or a token given through configuration.
///
/// `description` and `debugDescription` say only how long it is, so string interpolation, `dump` and loggers
/// cannot leak it; read `value` where the secret is really needed. Value type, `Sendable`.
public struct SecretText: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The secret itself.
    public var value: String

    public init(_ value: String) { self.value = value }

    /// `<secret, N bytes>`.
    public var description: String { "<secret, \(value.utf8.count) bytes>" }
    public var debugDescription: String { description }
}
