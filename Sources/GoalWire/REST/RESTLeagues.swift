public import GoalModel

/// One league as the HTTP API lists it (`GET /api/v1/leagues`, and the answer of `POST /api/v1/leagues`):
/// `{"id","name","created","role"}`, `role` being the caller's role in that league.
///
/// Value type, `Sendable`.
public struct LeagueListing: Hashable, Sendable {
    /// The league's slug.
    public var id: LeagueSlug
    /// The display name.
    public var name: String
    /// When the league was created, as goald wrote it (ISO 8601 UTC text; a number is kept as its digits).
    public var created: String
    /// The caller's role in this league.
    public var role: Role

    public init(id: LeagueSlug, name: String, created: String, role: Role) {
        self.id = id
        self.name = name
        self.created = created
        self.role = role
    }
}

/// Goalbase's error body as goald answers it (docs/HTTP.md "Errors"): `{"response_type":"error","response":
/// message,"code":code}`. Value type, `Sendable`.
public struct RESTErrorBody: Hashable, Sendable {
    /// The message for a person (`response`).
    public var message: String
    /// goald's stable code, when the body had one.
    public var code: RESTErrorCode?

    public init(message: String, code: RESTErrorCode?) {
        self.message = message
        self.code = code
    }
}

/// The JSON bodies of the league routes (`/api/v1/leagues`), both ways, and the reading of an error body: the one
/// place a client reads them (goal-load, goal-client through GoalTransport's `LeagueDirectoryClient`).
/// Stateless; any thread.
public enum RESTLeagues {
    /// `{"leagues":[{id,name,created,role}]}` in the given order.
    public static func encodeList(_ listings: [LeagueListing]) -> [UInt8] {
        var writer = JSONWriter(capacity: 96 * listings.count + 16)
        writer.raw(#"{"leagues":["#)
        for (index, listing) in listings.enumerated() {
            if index > 0 { writer.byte(UInt8(ascii: ",")) }
            writer.leagueListing(listing)
        }
        writer.raw("]}")
        return writer.bytes
    }

    /// One league `{id,name,created,role}`.
    public static func encode(_ listing: LeagueListing) -> [UInt8] {
        var writer = JSONWriter(capacity: 128)
        writer.leagueListing(listing)
        return writer.bytes
    }

    /// The body of `POST /api/v1/leagues`: `{"id","name"}`.
    public static func createBody(id: LeagueSlug, name: String) -> [UInt8] {
        var writer = JSONWriter(capacity: 32 + name.utf8.count)
        writer.raw(#"{"id":"#)
        writer.string(id.rawValue)
        writer.raw(#","name":"#)
        writer.string(name)
        writer.byte(UInt8(ascii: "}"))
        return writer.bytes
    }

    /// Reads `{"leagues":[…]}`.
    /// - Throws: `WireDecodingError` naming the field (`leagues.leagues[2].role`).
    public static func decodeList(_ bytes: [UInt8]) throws(WireDecodingError) -> [LeagueListing] {
        let root = try JSONObject(try WireJSON.parse(bytes, limit: .max), at: "leagues")
        return try JSONReader.array(try root.required("leagues"), at: root.path("leagues")) {
            (value, path) throws(WireDecodingError) in try listing(JSONObject(value, at: path))
        }
    }

    /// Reads one league `{id,name,created,role}` (also when wrapped as `{"league":{…}}`).
    /// - Throws: `WireDecodingError` naming the field (`league.id`).
    public static func decodeListing(_ bytes: [UInt8]) throws(WireDecodingError) -> LeagueListing {
        let root = try JSONObject(try WireJSON.parse(bytes, limit: .max), at: "league")
        if let inner = root.member("league"), case .object = inner {
            return try listing(JSONObject(inner, at: root.path("league")))
        }
        return try listing(root)
    }

    /// Reads an error body; nil when `bytes` is not one (not JSON, or no string `response`).
    public static func decodeError(_ bytes: [UInt8]) -> RESTErrorBody? {
        let parsed: JSONValue
        do {
            parsed = try WireJSON.parse(bytes, limit: .max)
        } catch {
            return nil
        }
        guard case .object(let members) = parsed,
            case .string(let message)? = members.last(where: { $0.key == "response" })?.value
        else { return nil }
        var code: RESTErrorCode?
        if case .string(let text)? = members.last(where: { $0.key == "code" })?.value {
            code = RESTErrorCode(rawValue: text)
        }
        return RESTErrorBody(message: message, code: code)
    }

    private static func listing(_ object: JSONObject) throws(WireDecodingError) -> LeagueListing {
        let idText = try object.string("id")
        let id: LeagueSlug
        do {
            id = try LeagueSlug(validating: idText)
        } catch {
            throw .invalidValue(object.path("id"), "expected a league id; found \"\(idText.prefix(64))\"")
        }
        let created: String
        switch try object.required("created") {
        case .string(let text): created = text
        case .number(let text): created = text
        case let other:
            throw .typeMismatch(object.path("created"), expected: "a string", found: other.kindDescription)
        }
        return LeagueListing(
            id: id,
            name: try object.string("name"),
            created: created,
            role: try JSONReader.enumeration(try object.required("role"), at: object.path("role"))
        )
    }
}

extension JSONWriter {
    fileprivate mutating func leagueListing(_ listing: LeagueListing) {
        raw(#"{"id":"#)
        string(listing.id.rawValue)
        raw(#","name":"#)
        string(listing.name)
        raw(#","created":"#)
        string(listing.created)
        raw(#","role":"#)
        string(listing.role.rawValue)
        byte(UInt8(ascii: "}"))
    }
}
