/// Why an HTTP API request body could not be read: answered 400 with `code` `invalid` and this message.
/// Value type, `Sendable`.
public struct RESTBodyError: Error, Hashable, Sendable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

/// The body of `POST /api/v1/players`: `{"name": String}`. Other keys are ignored (Grape did too).
public struct RESTPlayerBody: Hashable, Sendable {
    public let name: String

    /// Reads a JSON body; every shape error is a `RESTBodyError` naming the field.
    public init(json bytes: [UInt8]) throws(RESTBodyError) {
        let object = try RESTRequestFields(bytes)
        name = try object.string("name")
    }
}

/// The body of `POST /api/v1/matches` and `PUT /api/v1/matches/{id}`: `home_goals`, `away_goals` (integers),
/// `home_player_ids`, `away_player_ids` (arrays of id strings), all required (PUT is a full replace).
///
/// Ids stay text here: an id that is no UUID names no player, which the engine's rules answer (`unknown_player`).
public struct RESTMatchBody: Hashable, Sendable {
    public let homeGoals: Int
    public let awayGoals: Int
    public let homePlayerIDs: [String]
    public let awayPlayerIDs: [String]

    /// Reads a JSON body; every shape error is a `RESTBodyError` naming the field.
    public init(json bytes: [UInt8]) throws(RESTBodyError) {
        let object = try RESTRequestFields(bytes)
        homeGoals = try object.integer("home_goals")
        awayGoals = try object.integer("away_goals")
        homePlayerIDs = try object.strings("home_player_ids")
        awayPlayerIDs = try object.strings("away_player_ids")
    }
}

/// The top-level object of a request body, read with GoalWire's JSON parser.
private struct RESTRequestFields {
    let members: [(key: String, value: JSONValue)]

    init(_ bytes: [UInt8]) throws(RESTBodyError) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            throw RESTBodyError("the body is not valid JSON")
        }
        guard case .object(let members) = value else {
            throw RESTBodyError("the body must be a JSON object, not \(value.kindDescription)")
        }
        self.members = members
    }

    func value(_ key: String) throws(RESTBodyError) -> JSONValue {
        guard let member = members.last(where: { $0.key == key }) else {
            throw RESTBodyError("\(key) is missing")
        }
        return member.value
    }

    func string(_ key: String) throws(RESTBodyError) -> String {
        let value = try value(key)
        guard case .string(let text) = value else {
            throw RESTBodyError("\(key) must be a string, not \(value.kindDescription)")
        }
        return text
    }

    func integer(_ key: String) throws(RESTBodyError) -> Int {
        let value = try value(key)
        guard case .number(let text) = value else {
            throw RESTBodyError("\(key) must be an integer, not \(value.kindDescription)")
        }
        guard let number = Int(text) else {
            throw RESTBodyError("\(key) must be an integer without fraction or exponent, not \(text)")
        }
        return number
    }

    func strings(_ key: String) throws(RESTBodyError) -> [String] {
        let value = try value(key)
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
