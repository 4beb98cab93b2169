import GoalModel

extension ServerMessage {
    /// The largest server message a client accepts (a guard against garbage; real frames are far smaller).
    public static let maxMessageBytes = 4 * 1024 * 1024

    /// The message as one JSON text frame: `type` first, then its fields.
    public func encoded() -> [UInt8] {
        var w = JSONWriter(capacity: 128)
        switch self {
        case .changeset(let changeset):
            return ChangesetFrame.encode(knownDigest: changeset).bytes
        case .delta(let delta):
            return DeltaFrame.encode(delta)
        case .snapshotChunk(let chunk):
            return SnapshotChunker.frame(chunk)
        case .welcome(let welcome):
            w.raw(#"{"type":"welcome","protocol":"#)
            w.integer(welcome.protocolVersion)
            w.raw(#","epoch":"#)
            w.string(welcome.epoch.rawValue)
            w.raw(#","head":"#)
            w.integer(welcome.head)
            w.raw(#","head_digest":"#)
            w.hexString(welcome.headDigest.bytes)
            w.raw(#","mode":"#)
            w.string(welcome.mode.rawValue)
            w.raw(#","role":"#)
            w.string(welcome.role.rawValue)
            w.raw(#","server_time":"#)
            w.integer(welcome.serverTime.millisecondsSince1970)
            if let node = welcome.node {
                w.raw(#","node":"#)
                w.string(node)
            }
            if welcome.history { w.raw(#","history":true"#) }
        case .caughtUp(let head):
            w.raw(#"{"type":"caught_up","head":"#)
            w.integer(head)
        case .snapshotBegin(let begin):
            w.raw(#"{"type":"snapshot_begin","revision":"#)
            w.integer(begin.revision)
            w.raw(#","epoch":"#)
            w.string(begin.epoch.rawValue)
            w.raw(#","digest":"#)
            w.hexString(begin.digest.bytes)
            w.raw(#","players":"#)
            w.integer(begin.players)
            w.raw(#","matches":"#)
            w.integer(begin.matches)
        case .snapshotEnd(let revision, let digest):
            w.raw(#"{"type":"snapshot_end","revision":"#)
            w.integer(revision)
            w.raw(#","digest":"#)
            w.hexString(digest.bytes)
        case .ack(let seq, let revision, let noop):
            w.raw(#"{"type":"ack","seq":"#)
            w.integer(seq)
            w.raw(#","revision":"#)
            w.integer(revision)
            if noop { w.raw(#","noop":true"#) }
        case .rejected(let seq, let rejection):
            w.raw(#"{"type":"rejected","seq":"#)
            w.integer(seq)
            w.byte(UInt8(ascii: ","))
            w.rejectionMembers(rejection)
        case .rateLimited(let seq, let retryAfter):
            w.raw(#"{"type":"rate_limited""#)
            w.pacingMembers(seq: seq, retryAfterMilliseconds: retryAfter)
        case .overloaded(let seq, let retryAfter):
            w.raw(#"{"type":"overloaded""#)
            w.pacingMembers(seq: seq, retryAfterMilliseconds: retryAfter)
        case .presenceState, .presence:
            Self.encodePresence(self, into: &w)
        case .error(let code, let message):
            w.raw(#"{"type":"error","code":"#)
            w.string(code.rawValue)
            w.raw(#","message":"#)
            w.string(message)
        case .history(let answer):
            w.raw(#"{"type":"history""#)
            w.historyAnswerMembers(answer)
        }
        w.byte(UInt8(ascii: "}"))
        return w.bytes
    }

    /// Decodes one server message. Never traps.
    ///
    /// A `changeset` frame exactly as goald writes it is read straight into the model (`ChangesetFrameReader`);
    /// every other frame, and any changeset frame that reader does not recognise, goes through the strict parser,
    /// so what is accepted and every error are the strict path's.
    /// - Parameters:
    ///   - bytes: the frame's bytes (UTF-8 JSON).
    ///   - limit: the largest frame accepted (`maxMessageBytes` by default).
    /// - Throws: `WireDecodingError` naming the field and what was expected.
    public static func decode(_ bytes: [UInt8], limit: Int = maxMessageBytes) throws(WireDecodingError) -> ServerMessage
    {
        try decodeWithPayload(bytes, limit: limit).message
    }

    /// Decodes one server message like `decode`; for a `changeset` frame the direct reader read, also where the
    /// changeset's canonical payload lies in `bytes`, so `ChangesetFrame.verify(_:previousDigest:payload:)` checks
    /// its digest by hashing the frame's own bytes instead of re-encoding the changeset. Never traps.
    /// - Returns: the message, and the payload (nil for every other message and for frames the strict path read).
    /// - Throws: `WireDecodingError`, as `decode`.
    public static func decodeWithPayload(
        _ bytes: [UInt8],
        limit: Int = maxMessageBytes
    ) throws(WireDecodingError) -> (message: ServerMessage, payload: ChangesetFrame.Payload?) {
        if bytes.count <= limit, let read = ChangesetFrameReader.read(bytes) {
            return (.changeset(read.changeset), read.payload)
        }
        if bytes.count <= limit, let delta = DeltaFrameReader.read(bytes) {
            return (.delta(delta), nil)
        }
        return (try decodeStrictly(bytes, limit: limit), nil)
    }

    /// The strict path alone: the whole frame parsed (`JSONParser`), then read field by field (`ModelReader`).
    static func decodeStrictly(_ bytes: [UInt8], limit: Int) throws(WireDecodingError) -> ServerMessage {
        let (type, c) = try WireJSON.envelope(bytes, limit: limit, known: ServerMessage.types)
        switch type {
        case "welcome":
            return .welcome(
                Welcome(
                    protocolVersion: try c.integer("protocol"),
                    epoch: LeagueEpoch(rawValue: try c.string("epoch")),
                    head: try c.integer("head"),
                    headDigest: try c.read("head_digest", ModelReader.digest),
                    mode: try c.enumeration("mode"),
                    role: try c.enumeration("role"),
                    serverTime: try c.read("server_time", ModelReader.timestamp),
                    node: try c.optionalString("node"),
                    history: try c.readIfPresent("history", JSONReader.bool) ?? false
                )
            )
        case "changeset":
            return .changeset(try ModelReader.changeset(c))
        case "delta":
            return .delta(try ModelReader.delta(c))
        case "caught_up":
            return .caughtUp(head: try c.integer("head"))
        case "snapshot_begin":
            return .snapshotBegin(
                SnapshotBegin(
                    revision: try c.integer("revision"),
                    epoch: LeagueEpoch(rawValue: try c.string("epoch")),
                    digest: try c.read("digest", ModelReader.digest),
                    players: try c.integer("players"),
                    matches: try c.integer("matches")
                )
            )
        case "snapshot_chunk":
            return .snapshotChunk(
                SnapshotChunk(
                    players: try c.readIfPresent("players") { (value, path) throws(WireDecodingError) in
                        try JSONReader.array(value, at: path, ModelReader.player)
                    } ?? [],
                    matches: try c.readIfPresent("matches") { (value, path) throws(WireDecodingError) in
                        try JSONReader.array(value, at: path, ModelReader.match)
                    } ?? [],
                    ratings: try c.readIfPresent("ratings") { (value, path) throws(WireDecodingError) in
                        try JSONReader.array(value, at: path, ModelReader.rating)
                    } ?? []
                )
            )
        case "snapshot_end":
            return .snapshotEnd(revision: try c.integer("revision"), digest: try c.read("digest", ModelReader.digest))
        case "ack":
            return .ack(
                seq: try c.integer("seq"),
                revision: try c.integer("revision"),
                noop: try c.readIfPresent("noop", JSONReader.bool) ?? false
            )
        case "rejected":
            return .rejected(seq: try c.integer("seq"), try ModelReader.rejection(c))
        case "rate_limited":
            return .rateLimited(
                seq: try c.optionalInteger("seq"),
                retryAfterMilliseconds: try c.integer("retry_after_ms")
            )
        case "overloaded":
            return .overloaded(
                seq: try c.optionalInteger("seq"),
                retryAfterMilliseconds: try c.integer("retry_after_ms")
            )
        case "history":
            return .history(try HistoryReader.answer(c))
        case "presence_state":
            return try decodePresenceState(c)
        case "presence":
            return try decodePresence(c)
        default:
            return .error(code: try c.enumeration("code"), message: try c.string("message"))
        }
    }
}
