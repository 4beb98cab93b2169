/// Why an HTTP API request body could not be read: answered 400 with `code` `invalid` and this message.
/// Value type, `Sendable`.
public struct RESTBodyError: Error, Hashable, Sendable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

/// The body of `POST /api/v1/players`: `name` (a string). Other keys are ignored (Grape did too).
public struct RESTPlayerBody: Hashable, Sendable {
    public let name: String

    /// Reads a body in `format`; every shape error is a `RESTBodyError` naming the field.
    public init(_ bytes: [UInt8], format: RESTBodyFormat) throws(RESTBodyError) {
        let fields = try RESTRequestFields(bytes, format: format)
        name = try fields.string("name")
    }
}

/// The body of `POST /api/v1/matches` and `PUT /api/v1/matches/{id}`: `home_goals`, `away_goals` (integers),
/// `home_player_ids`, `away_player_ids` (lists of id strings), all required (PUT is a full replace). In a form
/// body the lists are repeated keys, `home_player_ids[]=…` as Rails writes them (`home_player_ids=…` is read too).
///
/// Ids stay text here: an id that is no UUID names no player, which the engine's rules answer (`unknown_player`).
public struct RESTMatchBody: Hashable, Sendable {
    public let homeGoals: Int
    public let awayGoals: Int
    public let homePlayerIDs: [String]
    public let awayPlayerIDs: [String]

    /// Reads a body in `format`; every shape error is a `RESTBodyError` naming the field.
    public init(_ bytes: [UInt8], format: RESTBodyFormat) throws(RESTBodyError) {
        let fields = try RESTRequestFields(bytes, format: format)
        homeGoals = try fields.integer("home_goals")
        awayGoals = try fields.integer("away_goals")
        homePlayerIDs = try fields.strings("home_player_ids")
        awayPlayerIDs = try fields.strings("away_player_ids")
    }
}

/// The body of `POST /api/v1/leagues` (`id` and `name`, strings) and of `PATCH /api/v1/leagues/{id}` (`name`
/// only). The texts are checked by the caller (`LeagueSlug`, `PlayerName`'s rules), which words the 400.
public struct RESTLeagueBody: Hashable, Sendable {
    /// The new league's id; nil when the body is read without one (PATCH).
    public let id: String?
    public let name: String

    /// Reads a body in `format`; `id` is required when `withID`. Every shape error is a `RESTBodyError` naming
    /// the field.
    public init(_ bytes: [UInt8], format: RESTBodyFormat, withID: Bool) throws(RESTBodyError) {
        let fields = try RESTRequestFields(bytes, format: format)
        id = withID ? try fields.string("id") : nil
        name = try fields.string("name")
    }
}

/// The fields of a request body, read from JSON (GoalWire's strict parser) or from a form.
private enum RESTRequestFields {
    case json([(key: String, value: JSONValue)])
    case form(RESTFormBody)

    init(_ bytes: [UInt8], format: RESTBodyFormat) throws(RESTBodyError) {
        switch format {
        case .form:
            // `curl -d '{"name":"Ada"}'` sends JSON labelled as a form; no form of ours starts with `{` or `[`.
            if let first = bytes.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }),
                first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
            {
                throw RESTBodyError(
                    "the body looks like JSON but its Content-Type says application/x-www-form-urlencoded "
                        + "(curl -d sends that); send it with Content-Type: application/json (curl --json)"
                )
            }
            self = .form(try RESTFormBody(bytes))
        case .json:
            // The parser trusts its input to be UTF-8; a string of other bytes would be stored repaired (U+FFFD).
            if let offset = RESTBodyText.firstInvalidUTF8Offset(bytes) {
                throw RESTBodyError("the body is not valid UTF-8 (byte \(offset))")
            }
            let value: JSONValue
            do {
                value = try JSONParser.parse(bytes)
            } catch {
                throw RESTBodyError("the body is not valid JSON")
            }
            guard case .object(let members) = value else {
                throw RESTBodyError("the body must be a JSON object, not \(value.kindDescription)")
            }
            self = .json(members)
        }
    }

    private func jsonValue(
        _ members: [(key: String, value: JSONValue)],
        _ key: String
    ) throws(RESTBodyError)
        -> JSONValue
    {
        guard let member = members.last(where: { $0.key == key }) else { throw RESTBodyError("\(key) is missing") }
        return member.value
    }

    func string(_ key: String) throws(RESTBodyError) -> String {
        switch self {
        case .form(let form):
            return try form.last(key)
        case .json(let members):
            let value = try jsonValue(members, key)
            guard case .string(let text) = value else {
                throw RESTBodyError("\(key) must be a string, not \(value.kindDescription)")
            }
            return text
        }
    }

    func integer(_ key: String) throws(RESTBodyError) -> Int {
        let text: String
        switch self {
        case .form(let form):
            text = try form.last(key)
            guard !text.isEmpty, text.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || (0x30...0x39).contains($0) })
            else { throw RESTBodyError("\(key) must be an integer, not \"\(text)\"") }
        case .json(let members):
            let value = try jsonValue(members, key)
            guard case .number(let number) = value else {
                throw RESTBodyError("\(key) must be an integer, not \(value.kindDescription)")
            }
            text = number
        }
        guard let number = Int(text) else {
            throw RESTBodyError("\(key) must be an integer without fraction or exponent, not \(text)")
        }
        return number
    }

    func strings(_ key: String) throws(RESTBodyError) -> [String] {
        switch self {
        case .form(let form):
            return try form.list(key)
        case .json(let members):
            let value = try jsonValue(members, key)
            guard case .array(let elements) = value else {
                throw RESTBodyError("\(key) must be an array of id strings, not \(value.kindDescription)")
            }
            var texts: [String] = []
            for element in elements {
                guard case .string(let text) = element else {
                    throw RESTBodyError("\(key) must hold id strings, not \(element.kindDescription)")
                }
                texts.append(text)
            }
            return texts
        }
    }
}
