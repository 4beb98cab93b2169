import GoalModel

/// The JSON of presence: a member object, the client's `presence` message and the server's `presence` and
/// `presence_state` messages (docs/PROTOCOL.md §4 "Presence"). Also used by goald nodes to tell each other about
/// their members (`PresenceRelayMessage`).
extension JSONWriter {
    /// `{"id","name","client_instance","node","state","match"?,"since"}`.
    mutating func presenceMember(_ member: PresenceMember) {
        raw(#"{"id":"#)
        string(member.id)
        raw(#","name":"#)
        string(member.name)
        raw(#","client_instance":"#)
        string(member.clientInstance.rawValue)
        raw(#","node":"#)
        string(member.node)
        raw(#","#)
        activityMembers(member.activity)
        raw(#","since":"#)
        integer(member.since.millisecondsSince1970)
        byte(UInt8(ascii: "}"))
    }

    /// `"state":…` and, when there is one, `"match":…`.
    mutating func activityMembers(_ activity: PresenceActivity) {
        raw(#""state":"#)
        string(activity.kind.rawValue)
        if let match = activity.matchID {
            raw(#","match":"#)
            matchID(match)
        }
    }

    mutating func presenceMembers(_ members: [PresenceMember]) {
        byte(UInt8(ascii: "["))
        for (index, member) in members.enumerated() {
            if index > 0 { byte(UInt8(ascii: ",")) }
            presenceMember(member)
        }
        byte(UInt8(ascii: "]"))
    }
}

enum PresenceReader {
    /// `state` and `match` of a `presence` message or a member: `editing` needs a match, `online` has none.
    static func activity(_ c: JSONObject) throws(WireDecodingError) -> PresenceActivity {
        let kind: PresenceActivity.Kind = try c.enumeration("state")
        let match = try c.readIfPresent("match", ModelReader.matchID)
        switch kind {
        case .online:
            guard match == nil else { throw .invalidValue(c.path("match"), "expected no match for state online") }
            return .online
        case .viewing:
            return .viewing(match)
        case .editing:
            guard let match else { throw .invalidValue(c.path("match"), "expected the id of the match edited") }
            return .editing(match)
        }
    }

    static func member(_ value: JSONValue, at path: String) throws(WireDecodingError) -> PresenceMember {
        let c = try JSONObject(value, at: path)
        return PresenceMember(
            id: try c.string("id"),
            name: try c.string("name"),
            clientInstance: try c.read("client_instance", ModelReader.instance),
            node: try c.string("node"),
            activity: try activity(c),
            since: try c.read("since", ModelReader.timestamp)
        )
    }

    static func members(_ value: JSONValue, at path: String) throws(WireDecodingError) -> [PresenceMember] {
        try JSONReader.array(value, at: path, member)
    }
}

extension ServerMessage {
    /// Writes the members of `presence` and `presence_state` (after `type`).
    static func encodePresence(_ message: ServerMessage, into w: inout JSONWriter) {
        switch message {
        case .presenceState(let members):
            w.raw(#"{"type":"presence_state","members":"#)
            w.presenceMembers(members)
        case .presence(let event):
            w.raw(#"{"type":"presence","event":"#)
            w.string(event.kind.rawValue)
            w.raw(#","member":"#)
            w.presenceMember(event.member)
        default:
            break
        }
    }

    static func decodePresenceState(_ c: JSONObject) throws(WireDecodingError) -> ServerMessage {
        .presenceState(try c.read("members", PresenceReader.members))
    }

    static func decodePresence(_ c: JSONObject) throws(WireDecodingError) -> ServerMessage {
        .presence(PresenceEvent(try c.enumeration("event"), try c.read("member", PresenceReader.member)))
    }
}

extension ClientMessage {
    static func encodeActivity(_ activity: PresenceActivity, into w: inout JSONWriter) {
        w.raw(#"{"type":"presence","#)
        w.activityMembers(activity)
    }
}
