import GoalModel

/// Why an inbound message could not be decoded: the path of the offending field and what was expected.
///
/// Decoding never traps: random bytes, truncated JSON, invalid UTF-8, wrong types, unknown `type` values and
/// missing fields all end here. `description` reads like `mutate.home_goals: expected an integer, found a
/// string`; it is safe to send back as an `error` message (`code`, then close with `closeCode`).
/// Value type, `Sendable`.
public struct WireDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Kind: Hashable, Sendable {
        case tooLarge(size: Int, limit: Int)
        case invalidUTF8
        case invalidJSON
        case missingField
        case typeMismatch(expected: String, found: String?)
        case invalidValue(String)
        case unknownType(String, known: [String])
    }

    private let kind: Kind

    /// The field the error is about: `<type>.<key>[index].<key>…`, or `message` for the message as a whole.
    public let path: String

    /// The `seq` of the `mutate` this error is about, when its envelope (`type`, `seq`) was readable and the
    /// error is in one of its other fields: the mutation is refused, the session goes on (`rejectedMutation`).
    public let mutateSeq: UInt64?

    private init(_ kind: Kind, path: String, mutateSeq: UInt64? = nil) {
        self.kind = kind
        self.path = path
        self.mutateSeq = mutateSeq
    }

    /// True when the bytes were not UTF-8: RFC 6455 closes such a text message with 1007, not 4400.
    var isInvalidUTF8: Bool { kind == .invalidUTF8 }

    /// This error, about a field of the `mutate` whose `seq` is `seq`.
    func inMutate(seq: UInt64) -> WireDecodingError {
        WireDecodingError(kind, path: path, mutateSeq: seq)
    }

    /// The answer to a `mutate` whose `seq` was readable but whose other fields were not:
    /// `rejected{seq, code: "invalid", fields: [the top-level member], message: description}`. nil for any other
    /// error, which is answered with `error{code}` and a close.
    public var rejectedMutation: ServerMessage? {
        guard let seq = mutateSeq else { return nil }
        return .rejected(
            seq: seq,
            MutationRejection(code: .invalid, message: description, fields: field.map { [$0] } ?? [])
        )
    }

    /// The top-level member of the message that the path names (`home_players` for
    /// `mutate.home_players[1]`), or nil for the message as a whole.
    public var field: String? {
        guard let dot = path.firstIndex(of: ".") else { return nil }
        let rest = path[path.index(after: dot)...]
        let end = rest.firstIndex { $0 == "." || $0 == "[" } ?? rest.endIndex
        return String(rest[..<end])
    }

    /// The message exceeds the size limit in force.
    public static func tooLarge(size: Int, limit: Int) -> WireDecodingError {
        WireDecodingError(.tooLarge(size: size, limit: limit), path: "message")
    }

    /// The message is not valid UTF-8.
    public static let invalidUTF8 = WireDecodingError(.invalidUTF8, path: "message")

    /// The message is not JSON (malformed, truncated, trailing bytes, nested too deeply).
    public static let invalidJSON = WireDecodingError(.invalidJSON, path: "message")

    /// A required field is absent.
    public static func missingField(_ path: String) -> WireDecodingError {
        WireDecodingError(.missingField, path: path)
    }

    /// A field has the wrong JSON type (`expected` and `found` read like "an integer", "a string").
    public static func typeMismatch(_ path: String, expected: String, found: String?) -> WireDecodingError {
        WireDecodingError(.typeMismatch(expected: expected, found: found), path: path)
    }

    /// A field has the right JSON type but not an acceptable value (`detail` starts with "expected").
    public static func invalidValue(_ path: String, _ detail: String) -> WireDecodingError {
        WireDecodingError(.invalidValue(detail), path: path)
    }

    /// The `type` discriminator names no message of this direction.
    public static func unknownType(_ name: String, known: [String]) -> WireDecodingError {
        WireDecodingError(.unknownType(String(name.prefix(64)), known: known), path: "message.type")
    }

    /// The `error` code that reports this failure to the peer.
    public var code: WireErrorCode {
        switch kind {
        case .tooLarge: .tooLarge
        case .unknownType: .unknownType
        case .invalidUTF8, .invalidJSON, .missingField, .typeMismatch, .invalidValue: .badMessage
        }
    }

    public var description: String {
        switch kind {
        case .tooLarge(let size, let limit):
            "\(path): \(size) bytes exceed the limit of \(limit) bytes"
        case .invalidUTF8:
            "\(path): not valid UTF-8"
        case .invalidJSON:
            "\(path): not valid JSON (malformed, truncated, trailing data or nested too deeply)"
        case .missingField:
            "\(path): required field is missing"
        case .typeMismatch(let expected, let found):
            "\(path): expected \(expected)" + (found.map { ", found \($0)" } ?? "")
        case .invalidValue(let detail):
            "\(path): \(detail)"
        case .unknownType(let name, let known):
            "\(path): unknown message type \"\(name)\"; expected one of \(known.joined(separator: ", "))"
        }
    }
}
