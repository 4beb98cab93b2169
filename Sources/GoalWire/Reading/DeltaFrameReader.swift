import GoalModel

/// The fast path of `ServerMessage.decode` for `delta` frames exactly as goald writes them (`DeltaFrame.encode`):
/// the bytes are read straight into a `ChangesetDelta`, with no `JSONValue` tree in between, like
/// `ChangesetFrameReader` for full frames. Anything else answers nil and the caller decodes the frame with the strict
/// path, so the accepted language and every error stay the strict path's. Stateless; safe from any thread.
enum DeltaFrameReader {
    /// The delta in `bytes`, or nil when this reader does not recognise them (decode with the strict path).
    static func read(_ bytes: [UInt8]) -> ChangesetDelta? {
        bytes.withUnsafeBufferPointer { buffer in
            var cursor = FrameCursor(buffer)
            return delta(&cursor)
        }
    }

    private static func delta(_ c: inout FrameCursor) -> ChangesetDelta? {
        guard c.literal(#"{"type":"delta","revision":"#), let revision = c.unsigned(),
            c.literal(#","digest":"#), let digest = c.digest(),
            c.literal(#","time":"#), let time = c.signed(), c.byte(UInt8(ascii: ","))
        else { return nil }
        var action: MutationAction?
        if c.literal(#""action":"#) {
            guard let read = ChangesetFrameReader.action(&c), c.byte(UInt8(ascii: ",")) else { return nil }
            action = read
        }
        guard c.literal(#""author":"#), let author = c.string(), c.literal(#","changes":["#) else { return nil }
        guard let changes = FrameCursor.elements(&c, change) else { return nil }
        guard c.literal(#","client_instance":"#), let instance = ChangesetFrameReader.instance(&c),
            c.literal(#","seq":"#), let seq = c.unsigned(), c.byte(UInt8(ascii: "}")), c.atEnd
        else { return nil }
        return ChangesetDelta(
            revision: revision,
            mutationID: MutationID(instance: instance, seq: seq),
            author: author,
            time: Timestamp(millisecondsSince1970: time),
            action: action,
            changes: changes,
            digest: digest
        )
    }

    /// `{<match fields>,"id":…,"kind":"match"}`, `{"id":…,"kind":"player","name":…,"name_key":…}`,
    /// `{"id":…,"kind":"player_deleted"}` or `{"id":…,"kind":"match_deleted"}`.
    private static func change(_ c: inout FrameCursor) -> DeltaChange? {
        guard c.byte(UInt8(ascii: "{")), let update = ChangesetFrameReader.matchFields(&c), c.literal(#""id":"#),
            let id = c.uuid()
        else { return nil }
        if c.literal(#","kind":"match"}"#) { return .match(id: MatchID(id), update) }
        guard update.isEmpty else { return nil }
        if c.literal(#","kind":"match_deleted"}"#) { return .matchDeleted(MatchID(id)) }
        if c.literal(#","kind":"player_deleted"}"#) { return .playerDeleted(PlayerID(id)) }
        guard c.literal(#","kind":"player","name":"#), let name = c.string(), c.literal(#","name_key":"#),
            let nameKey = c.string(), c.byte(UInt8(ascii: "}"))
        else { return nil }
        return .player(id: PlayerID(id), name: name, nameKey: nameKey)
    }
}
