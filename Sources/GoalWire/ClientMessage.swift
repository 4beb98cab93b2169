public import GoalModel

/// Every message a client sends, discriminated on the wire by `type`.
///
/// `hello` must be the first message of a session (at most `WireProtocol.maxBytesBeforeHello` bytes); `mutate`
/// may follow any number of times. Value type, `Sendable`; encode with `encoded()`, decode with `decode(_:limit:)`.
public enum ClientMessage: Hashable, Sendable {
    /// Authenticates the session and says where the client's replica stands.
    case hello(Hello)
    /// Asks for one mutation. Its id is (`hello.client_instance`, `seq`).
    case mutate(Mutate)
    /// Announces what the session is doing (not logged; rate-limited; docs/PROTOCOL.md §4 "Presence").
    case presence(PresenceActivity)
    /// Asks for one page of an entity's history (only to a server whose `welcome` says `history: true`).
    case history(HistoryRequest)

    /// The `type` values of this direction.
    public static let types = ["hello", "mutate", "presence", "history"]

    /// This message's `type` on the wire.
    public var type: String {
        switch self {
        case .hello: "hello"
        case .mutate: "mutate"
        case .history: "history"
        case .presence: "presence"
        }
    }

    /// Which messages a session wants besides the answers to its own mutations.
    public enum StreamSelection: String, Hashable, Sendable, CaseIterable {
        /// Backlog or snapshot, then every changeset live.
        case all
        /// Only `ack`, `rejected`, `rate_limited`, `overloaded` and `error`: for scripts and load writers.
        case acks
    }

    /// `hello {protocol, token, client_instance, league?, since?, epoch?, digest?, stream}`.
    public struct Hello: Hashable, Sendable {
        /// The protocol version the client speaks (`WireProtocol.version`).
        public var protocolVersion: Int
        /// The bearer token (never logged by the server).
        public var token: String
        /// The client instance: scopes mutation ids and exactly-once answers.
        public var clientInstance: ClientInstanceID
        /// The revision the client's replica holds; absent for an empty replica.
        public var since: Revision?
        /// The epoch the replica was built from; a different epoch forces a snapshot.
        public var epoch: LeagueEpoch?
        /// d_since as the client computed it; a different digest forces a snapshot.
        public var digest: Digest?
        /// `all` (default when absent) or `acks`.
        public var stream: StreamSelection
        /// Whether the session is listed and sent presence (`none`, the default when absent: listed, sent nothing).
        public var presence: PresenceSubscription
        /// The league the session follows; nil (absent on the wire) is the default league.
        public var league: LeagueSlug?

        public init(
            protocolVersion: Int = WireProtocol.version,
            token: String,
            clientInstance: ClientInstanceID,
            since: Revision? = nil,
            epoch: LeagueEpoch? = nil,
            digest: Digest? = nil,
            stream: StreamSelection = .all,
            presence: PresenceSubscription = .none,
            league: LeagueSlug? = nil
        ) {
            self.protocolVersion = protocolVersion
            self.token = token
            self.clientInstance = clientInstance
            self.since = since
            self.epoch = epoch
            self.digest = digest
            self.stream = stream
            self.presence = presence
            self.league = league
        }

        /// The league the session follows: the one named, or the default league.
        public var leagueOrDefault: LeagueSlug { league ?? .default }
    }

    /// `mutate {seq, base, op, …action fields}`: one mutation, flat.
    public struct Mutate: Hashable, Sendable {
        /// The mutation's sequence number within its client instance (1, 2, 3 …).
        public var seq: UInt64
        /// The revision at which the client read the values it edits.
        public var base: Revision
        /// What to do.
        public var action: MutationAction

        public init(seq: UInt64, base: Revision, action: MutationAction) {
            self.seq = seq
            self.base = base
            self.action = action
        }

        /// The message for a mutation (its instance travels in `hello`).
        public init(_ mutation: Mutation) {
            self.init(seq: mutation.id.seq, base: mutation.base, action: mutation.action)
        }

        /// The mutation this message asks for, on a session whose `hello` named `instance`.
        public func mutation(instance: ClientInstanceID) -> Mutation {
            Mutation(id: MutationID(instance: instance, seq: seq), base: base, action: action)
        }
    }
}

extension ClientMessage {
    /// The message as one JSON text frame: `type` first, then the message's fields.
    public func encoded() -> [UInt8] {
        var w = JSONWriter(capacity: 256)
        switch self {
        case .hello(let hello):
            w.raw(#"{"type":"hello","protocol":"#)
            w.integer(hello.protocolVersion)
            w.raw(#","token":"#)
            w.string(hello.token)
            w.raw(#","client_instance":"#)
            w.string(hello.clientInstance.rawValue)
            if let league = hello.league {
                w.raw(#","league":"#)
                w.string(league.rawValue)
            }
            if let since = hello.since {
                w.raw(#","since":"#)
                w.integer(since)
            }
            if let epoch = hello.epoch {
                w.raw(#","epoch":"#)
                w.string(epoch.rawValue)
            }
            if let digest = hello.digest {
                w.raw(#","digest":"#)
                w.hexString(digest.bytes)
            }
            w.raw(#","stream":"#)
            w.string(hello.stream.rawValue)
            if hello.presence != .none {
                w.raw(#","presence":"#)
                w.string(hello.presence.rawValue)
            }
        case .presence(let activity):
            Self.encodeActivity(activity, into: &w)
        case .mutate(let mutate):
            w.raw(#"{"type":"mutate","seq":"#)
            w.integer(mutate.seq)
            w.raw(#","base":"#)
            w.integer(mutate.base)
            w.byte(UInt8(ascii: ","))
            w.actionMembers(mutate.action)
        case .history(let request):
            w.raw(#"{"type":"history""#)
            w.historyRequestMembers(request)
        }
        w.byte(UInt8(ascii: "}"))
        return w.bytes
    }

    /// Decodes one inbound text message. Never traps.
    ///
    /// Integers are integers: `10.0`, `1e1` or `-0.0` in an integer field is refused at that field. `seq`,
    /// `base` and `since` must be below 2^63 (a store keeps them as signed 64-bit integers; they are refused,
    /// never clamped). When a `mutate`'s `seq` could be read but another of its fields could not, the error
    /// carries `rejectedMutation` so the server answers `rejected{seq, code: invalid}` and keeps the session.
    /// - Parameters:
    ///   - bytes: the message's bytes (UTF-8 JSON).
    ///   - limit: the size limit in force: `WireProtocol.maxInboundMessageBytes`, or
    ///     `WireProtocol.maxBytesBeforeHello` before the session is authenticated.
    /// - Throws: `WireDecodingError` naming the field and what was expected.
    public static func decode(
        _ bytes: [UInt8],
        limit: Int = WireProtocol.maxInboundMessageBytes
    ) throws(WireDecodingError) -> ClientMessage {
        let (type, c) = try WireJSON.envelope(bytes, limit: limit, known: ClientMessage.types)
        switch type {
        case "hello":
            return .hello(
                Hello(
                    protocolVersion: try c.integer("protocol"),
                    token: try c.string("token"),
                    clientInstance: try c.read("client_instance", ModelReader.instance),
                    since: try c.member("since").map { (value) throws(WireDecodingError) in
                        try signed64Bound(value, at: c.path("since"))
                    },
                    epoch: try c.optionalString("epoch").map(LeagueEpoch.init(rawValue:)),
                    digest: try c.readIfPresent("digest", ModelReader.digest),
                    stream: c.contains("stream") ? try c.enumeration("stream") : .all,
                    presence: c.contains("presence") ? try c.enumeration("presence") : .none,
                    league: try c.readIfPresent("league", ModelReader.league)
                )
            )
        case "history":
            return .history(try HistoryReader.request(c))
        case "presence":
            return .presence(try PresenceReader.activity(c))
        default:
            let seq = try c.read("seq", signed64Bound)
            do throws(WireDecodingError) {
                return .mutate(
                    Mutate(seq: seq, base: try c.read("base", signed64Bound), action: try ModelReader.action(c))
                )
            } catch {
                throw error.inMutate(seq: seq)
            }
        }
    }

    /// A non-negative integer below 2^63: `seq`, `base` and `since`.
    static func signed64Bound(_ value: JSONValue, at path: String) throws(WireDecodingError) -> UInt64 {
        let number: UInt64 = try JSONReader.integer(value, at: path)
        guard number <= UInt64(Int64.max) else {
            throw .invalidValue(path, "expected a non-negative integer below 2^63; found a number out of range")
        }
        return number
    }
}
