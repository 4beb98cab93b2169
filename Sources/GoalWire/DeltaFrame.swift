public import GoalModel

/// The `delta` frame: a changeset's lean form (`ChangesetDelta`), which protocol 2 sessions get live instead of the
/// full `changeset` frame (docs/PROTOCOL.md §5, "Lean changesets"). Built once per changeset, like the full frame,
/// and written unchanged to every protocol 2 session.
///
/// Layout: `{"type":"delta","revision":R,"digest":"<64 hex>","time":T,<body>}`, the header in the full frame's
/// order (so `ChangesetFrame.peek` reads both) and `<body>` the same members as a changeset's in sorted key order,
/// `changes` holding lean changes: `{"id","kind":"player","name","name_key"}`, `{"id","kind":"player_deleted"}`,
/// `{"away_goals"?,"away_players"?,"home_goals"?,"home_players"?,"id","kind":"match"}` (the written fields) and
/// `{"id","kind":"match_deleted"}`. The digest is the full changeset's d_R: a reader expands the delta with its
/// replica (`ChangesetDelta.expand(in:)`) and checks it as for any changeset.
///
/// A namespace; every function is pure and safe from any thread.
public enum DeltaFrame {
    /// The frame's bytes.
    public static func encode(_ delta: ChangesetDelta) -> [UInt8] {
        var w = JSONWriter(capacity: 256 + 160 * delta.changes.count + delta.author.utf8.count)
        w.raw(#"{"type":"delta","revision":"#)
        w.integer(delta.revision)
        w.raw(#","digest":"#)
        w.hexString(delta.digest.bytes)
        w.raw(#","time":"#)
        w.integer(delta.time.millisecondsSince1970)
        w.byte(UInt8(ascii: ","))
        if let action = delta.action {
            w.raw(#""action":"#)
            w.action(action)
            w.byte(UInt8(ascii: ","))
        }
        w.raw(#""author":"#)
        w.string(delta.author)
        w.raw(#","changes":["#)
        for (index, change) in delta.changes.enumerated() {
            if index > 0 { w.byte(UInt8(ascii: ",")) }
            w.deltaChange(change)
        }
        w.raw(#"],"client_instance":"#)
        w.string(delta.mutationID.instance.rawValue)
        w.raw(#","seq":"#)
        w.integer(delta.mutationID.seq)
        w.byte(UInt8(ascii: "}"))
        return w.bytes
    }

    /// The `kind` values of lean changes.
    public static let kinds = ["player", "player_deleted", "match", "match_deleted"]
}

extension JSONWriter {
    /// One lean change: a flat object with its `kind`, sorted keys.
    mutating func deltaChange(_ change: DeltaChange) {
        switch change {
        case .player(let id, let name, let nameKey):
            raw(#"{"id":"#)
            uuid(id.uuid)
            raw(#","kind":"player","name":"#)
            string(name)
            raw(#","name_key":"#)
            string(nameKey)
            byte(UInt8(ascii: "}"))
        case .playerDeleted(let id):
            raw(#"{"id":"#)
            uuid(id.uuid)
            raw(#","kind":"player_deleted"}"#)
        case .match(let id, let update):
            byte(UInt8(ascii: "{"))
            matchFields(update)
            raw(#""id":"#)
            uuid(id.uuid)
            raw(#","kind":"match"}"#)
        case .matchDeleted(let id):
            raw(#"{"id":"#)
            uuid(id.uuid)
            raw(#","kind":"match_deleted"}"#)
        }
    }
}

extension ModelReader {
    /// A `delta` frame's object (its `type` member is ignored).
    static func delta(_ object: JSONObject) throws(WireDecodingError) -> ChangesetDelta {
        ChangesetDelta(
            revision: try object.integer("revision"),
            mutationID: try mutationID(object),
            author: try object.string("author"),
            time: try object.read("time", timestamp),
            action: try object.readIfPresent("action") { (value, path) throws(WireDecodingError) in
                try action(try JSONObject(value, at: path))
            },
            changes: try object.read("changes") { (value, path) throws(WireDecodingError) in
                try JSONReader.array(value, at: path, deltaChange)
            },
            digest: try object.read("digest", digest)
        )
    }

    /// One lean change.
    static func deltaChange(_ value: JSONValue, at path: String) throws(WireDecodingError) -> DeltaChange {
        let object = try JSONObject(value, at: path)
        switch try object.discriminator("kind", among: DeltaFrame.kinds) {
        case "player":
            return .player(
                id: try object.read("id", playerID),
                name: try object.string("name"),
                nameKey: try object.string("name_key")
            )
        case "player_deleted": return .playerDeleted(try object.read("id", playerID))
        case "match": return .match(id: try object.read("id", matchID), try matchUpdate(object))
        default: return .matchDeleted(try object.read("id", matchID))
        }
    }
}
