public import GoalModel

/// What goald nodes sharing one store tell each other about presence (over a `PresenceBus`; never sent to
/// clients): one member's join, update or leave; a node's full list, in parts that each fit a bus payload; a new
/// node's request for everyone's list; a node's goodbye. Text JSON with `node` and `kind`.
///
/// Value type, `Sendable`.
public enum PresenceRelayMessage: Hashable, Sendable {
    /// One change of a member of `node`.
    case event(node: String, PresenceEvent)
    /// Part `part` (0-based) of `parts` of `node`'s full list number `generation`.
    case refresh(node: String, generation: UInt64, part: Int, parts: Int, members: [PresenceMember])
    /// `node` (just started or reconnected to the bus) asks every node for its full list.
    case sync(node: String)
    /// `node` is shutting down: its members are gone.
    case bye(node: String)

    /// The node that sent the message.
    public var node: String {
        switch self {
        case .event(let node, _), .refresh(let node, _, _, _, _), .sync(let node), .bye(let node): node
        }
    }

    /// The message as one bus payload.
    public func encoded() -> String {
        var w = JSONWriter(capacity: 256)
        w.raw(#"{"node":"#)
        w.string(node)
        switch self {
        case .event(_, let event):
            w.raw(#","kind":"event","event":"#)
            w.string(event.kind.rawValue)
            w.raw(#","member":"#)
            w.presenceMember(event.member)
        case .refresh(_, let generation, let part, let parts, let members):
            w.raw(#","kind":"refresh","generation":"#)
            w.integer(generation)
            w.raw(#","part":"#)
            w.integer(part)
            w.raw(#","parts":"#)
            w.integer(parts)
            w.raw(#","members":"#)
            w.presenceMembers(members)
        case .sync:
            w.raw(#","kind":"sync""#)
        case .bye:
            w.raw(#","kind":"bye""#)
        }
        w.byte(UInt8(ascii: "}"))
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// Reads one bus payload. Never traps.
    /// - Throws: `WireDecodingError` naming the field.
    public static func decode(_ text: String) throws(WireDecodingError) -> PresenceRelayMessage {
        let c = try JSONObject(try WireJSON.parse(Array(text.utf8), limit: 64 * 1024), at: "relay")
        let node = try c.string("node")
        switch try c.discriminator("kind", among: ["event", "refresh", "sync", "bye"]) {
        case "event":
            return .event(
                node: node,
                PresenceEvent(try c.enumeration("event"), try c.read("member", PresenceReader.member))
            )
        case "refresh":
            return .refresh(
                node: node,
                generation: try c.integer("generation"),
                part: try c.integer("part"),
                parts: try c.integer("parts"),
                members: try c.read("members", PresenceReader.members)
            )
        case "sync":
            return .sync(node: node)
        default:
            return .bye(node: node)
        }
    }

    /// A node's full list as `refresh` payloads of at most `maxBytes` each (at least one, also for no members).
    public static func refreshPayloads(
        node: String,
        generation: UInt64,
        members: [PresenceMember],
        maxBytes: Int
    ) -> [String] {
        var groups: [[PresenceMember]] = [[]]
        var size = 0
        let overhead = 160 + node.utf8.count
        for member in members {
            var w = JSONWriter(capacity: 256)
            w.presenceMember(member)
            let bytes = w.bytes.count + 1
            if size + bytes + overhead > maxBytes, !(groups[groups.count - 1].isEmpty) {
                groups.append([])
                size = 0
            }
            groups[groups.count - 1].append(member)
            size += bytes
        }
        return groups.enumerated().map { index, group in
            PresenceRelayMessage.refresh(
                node: node,
                generation: generation,
                part: index,
                parts: groups.count,
                members: group
            ).encoded()
        }
    }
}
