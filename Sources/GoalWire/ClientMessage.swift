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

    /// The `type` values of this direction.
    public static let types = ["hello", "mutate"]

    /// This message's `type` on the wire.
    public var type: String {
        switch self {
        case .hello: "hello"
        case .mutate: "mutate"
        }
    }

    /// Which messages a session wants besides the answers to its own mutations.
    public enum StreamSelection: String, Hashable, Sendable, CaseIterable {
        /// Backlog or snapshot, then every changeset live.
        case all
        /// Only `ack`, `rejected`, `rate_limited`, `overloaded` and `error`: for scripts and load writers.
        case acks
    }

    /// `hello {protocol, token, client_instance, since?, epoch?, digest?, stream}`.
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
        public var epoch: String?
        /// d_since as the client computed it; a different digest forces a snapshot.
        public var digest: Digest?
        /// `all` (default when absent) or `acks`.
        public var stream: StreamSelection

        public init(
            protocolVersion: Int = WireProtocol.version,
            token: String,
            clientInstance: ClientInstanceID,
            since: Revision? = nil,
            epoch: String? = nil,
            digest: Digest? = nil,
            stream: StreamSelection = .all
        ) {
            self.protocolVersion = protocolVersion
            self.token = token
            self.clientInstance = clientInstance
            self.since = since
            self.epoch = epoch
            self.digest = digest
            self.stream = stream
        }
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
            if let since = hello.since {
                w.raw(#","since":"#)
                w.integer(since)
            }
            if let epoch = hello.epoch {
                w.raw(#","epoch":"#)
                w.string(epoch)
            }
            if let digest = hello.digest {
                w.raw(#","digest":"#)
                w.hexString(digest.bytes)
            }
            w.raw(#","stream":"#)
            w.string(hello.stream.rawValue)
        case .mutate(let mutate):
            w.raw(#"{"type":"mutate","seq":"#)
            w.integer(mutate.seq)
            w.raw(#","base":"#)
            w.integer(mutate.base)
            w.byte(UInt8(ascii: ","))
            w.actionMembers(mutate.action)
        }
        w.byte(UInt8(ascii: "}"))
        return w.bytes
    }

    /// Decodes one inbound text message. Never traps.
    /// - Parameters:
    ///   - bytes: the message's bytes (UTF-8 JSON).
    ///   - limit: the size limit in force: `WireProtocol.maxInboundMessageBytes`, or
    ///     `WireProtocol.maxBytesBeforeHello` before the session is authenticated.
    /// - Throws: `WireDecodingError` naming the field and what was expected.
    public static func decode(
        _ bytes: [UInt8],
        limit: Int = WireProtocol.maxInboundMessageBytes
    ) throws(WireDecodingError) -> ClientMessage {
        try WireJSON.decode(ClientMessage.self, from: bytes, limit: limit)
    }
}

extension ClientMessage: Decodable {
    public init(from decoder: any Decoder) throws {
        self = try decoder.decodeMessage(known: ClientMessage.types) { type, c in
            switch type {
            case "hello":
                return .hello(
                    Hello(
                        protocolVersion: try c.integer(Int.self, "protocol"),
                        token: try c.value(String.self, "token"),
                        clientInstance: try c.value(ClientInstanceID.self, "client_instance"),
                        since: try c.optionalInteger(Revision.self, "since"),
                        epoch: try c.optionalValue(String.self, "epoch"),
                        digest: try c.optionalValue(Digest.self, "digest"),
                        stream: c.contains(MessageKey("stream")) ? try c.enumeration(StreamSelection.self, "stream") : .all
                    )
                )
            default:
                return .mutate(
                    Mutate(
                        seq: try c.integer(UInt64.self, "seq"),
                        base: try c.integer(Revision.self, "base"),
                        action: try MutationAction(from: decoder)
                    )
                )
            }
        }
    }
}
