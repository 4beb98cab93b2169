import Foundation
import GoalModel

/// The fast path of `ServerMessage.decode` for `changeset` frames exactly as goald writes them
/// (`ChangesetFrame.encode`: `type`, `revision`, `digest`, `time`, then the body in sorted key order, no
/// whitespace): the bytes are read straight into the model, with no `JSONValue` tree in between.
///
/// It recognises a subset of the frames the strict path (`JSONParser`, `ModelReader`) accepts and reads each to
/// the same value; anything else (another key order, whitespace, an escape, an unknown member, a leading zero,
/// a value out of range, an uppercase UUID) answers nil and the caller decodes the frame with the strict path, so the
/// accepted language and every error stay the strict path's. What it accepts is byte for byte what
/// `ChangesetFrame.encode` writes for the changeset it returns, so it also records where the canonical payload lies
/// in the frame (`ChangesetFrame.Payload`) and the digest chain is checked without re-encoding. Stateless; safe
/// from any thread.
enum ChangesetFrameReader {
    /// The changeset in `bytes` and where its canonical payload lies in them, or nil when this reader does not
    /// recognise the bytes (decode with the strict path).
    static func read(_ bytes: [UInt8]) -> (changeset: Changeset, payload: ChangesetFrame.Payload)? {
        let read = bytes.withUnsafeBufferPointer { buffer in
            var cursor = FrameCursor(buffer)
            return changeset(&cursor)
        }
        guard let (value, slices) = read else { return nil }
        let payload = ChangesetFrame.Payload(
            frame: bytes,
            revision: value.revision,
            digest: value.digest,
            slices: slices
        )
        return (value, payload)
    }

    private static func changeset(_ c: inout FrameCursor) -> (Changeset, ChangesetFrame.PayloadSlices)? {
        guard c.literal(#"{"type":"changeset""#) else { return nil }
        let revisionStart = c.index
        guard c.literal(#","revision":"#), let revision = c.unsigned() else { return nil }
        let revisionEnd = c.index
        guard c.literal(#","digest":"#), let digest = c.digest() else { return nil }
        let timeStart = c.index
        guard c.literal(#","time":"#), let time = c.signed() else { return nil }
        let timeEnd = c.index
        guard c.byte(UInt8(ascii: ",")) else { return nil }
        let bodyStart = c.index
        var action: MutationAction?
        if c.literal(#""action":"#) {
            guard let read = self.action(&c), c.byte(UInt8(ascii: ",")) else { return nil }
            action = read
        }
        guard c.literal(#""author":"#), let author = c.string(), c.literal(#","changes":["#) else { return nil }
        guard let changes = FrameCursor.elements(&c, change) else { return nil }
        var mutationID: MutationID?
        var split = c.index
        if c.literal(#","client_instance":"#) {
            guard let instance = instance(&c) else { return nil }
            split = c.index
            guard c.literal(#","seq":"#), let seq = c.unsigned() else { return nil }
            mutationID = MutationID(instance: instance, seq: seq)
        }
        let end = c.index
        guard c.byte(UInt8(ascii: "}")), c.atEnd else { return nil }
        let changeset = Changeset(
            revision: revision,
            mutationID: mutationID,
            author: author,
            time: Timestamp(millisecondsSince1970: time),
            action: action,
            changes: changes,
            digest: digest
        )
        let slices = ChangesetFrame.PayloadSlices(
            revisionMember: revisionStart..<revisionEnd,
            timeMember: timeStart..<timeEnd,
            bodyBeforeSeq: bodyStart..<split,
            seqMember: split..<end
        )
        return (changeset, slices)
    }

    // MARK: Changes

    private static func change(_ c: inout FrameCursor) -> Change? {
        if c.startsWith(#"{"away_goals":"#) { return match(&c).map(Change.matchUpserted) }
        if c.startsWith(#"{"drawn":"#) { return rating(&c).map(Change.ratingUpdated) }
        if c.startsWith(#"{"created":"#) { return player(&c).map(Change.playerUpserted) }
        guard c.literal(#"{"id":"#), let id = c.uuid() else { return nil }
        if c.literal(#","kind":"match_deleted"}"#) { return .matchDeleted(MatchID(id)) }
        if c.literal(#","kind":"player_deleted"}"#) { return .playerDeleted(PlayerID(id)) }
        return nil
    }

    /// `{"created":…,"id":…,"kind":"player","name":…,"name_key":…,"name_stamp":…}`
    private static func player(_ c: inout FrameCursor) -> Player? {
        guard c.literal(#"{"created":"#), let created = stamp(&c), c.literal(#","id":"#), let id = c.uuid(),
            c.literal(#","kind":"player","name":"#), let name = c.string(), c.literal(#","name_key":"#),
            let nameKey = c.string(), c.literal(#","name_stamp":"#), let nameStamp = stamp(&c),
            c.byte(UInt8(ascii: "}"))
        else { return nil }
        return Player(id: PlayerID(id), name: name, nameKey: nameKey, created: created, nameStamp: nameStamp)
    }

    /// `{"away_goals":…,"away_players":…,"created":…,"home_goals":…,"home_players":…,"id":…,"kind":"match",
    /// "stamps":{"away_goals":…,"away_players":…,"home_goals":…,"home_players":…}}`
    private static func match(_ c: inout FrameCursor) -> Match? {
        guard c.literal(#"{"away_goals":"#), let awayGoals = c.int(), c.literal(#","away_players":"#),
            let awayPlayers = playerIDs(&c), c.literal(#","created":"#), let created = stamp(&c),
            c.literal(#","home_goals":"#), let homeGoals = c.int(), c.literal(#","home_players":"#),
            let homePlayers = playerIDs(&c), c.literal(#","id":"#), let id = c.uuid(),
            c.literal(#","kind":"match","stamps":{"away_goals":"#), let awayGoalsStamp = stamp(&c),
            c.literal(#","away_players":"#), let awayPlayersStamp = stamp(&c), c.literal(#","home_goals":"#),
            let homeGoalsStamp = stamp(&c), c.literal(#","home_players":"#), let homePlayersStamp = stamp(&c),
            c.literal("}}")
        else { return nil }
        return Match(
            id: MatchID(id),
            homePlayers: homePlayers,
            awayPlayers: awayPlayers,
            homeGoals: homeGoals,
            awayGoals: awayGoals,
            created: created,
            stamps: MatchStamps(
                homePlayers: homePlayersStamp,
                awayPlayers: awayPlayersStamp,
                homeGoals: homeGoalsStamp,
                awayGoals: awayGoalsStamp
            )
        )
    }

    /// `{"drawn":…,"kind":"rating","lost":…,"played":…,"player":…,"points":…,"won":…}`
    private static func rating(_ c: inout FrameCursor) -> Rating? {
        guard c.literal(#"{"drawn":"#), let drawn = c.int(), c.literal(#","kind":"rating","lost":"#),
            let lost = c.int(), c.literal(#","played":"#), let played = c.int(), c.literal(#","player":"#),
            let player = c.uuid(), c.literal(#","points":"#), let points = c.int(), c.literal(#","won":"#),
            let won = c.int(), c.byte(UInt8(ascii: "}"))
        else { return nil }
        return Rating(playerID: PlayerID(player), points: points, played: played, won: won, drawn: drawn, lost: lost)
    }

    // MARK: Actions

    /// A mutation action: `{"delta":…,"id":…,"op":"adjust_goals","side":…}`, or the optional match fields in
    /// sorted order, `"id"`, then `"name"` (players) and `"op"`.
    static func action(_ c: inout FrameCursor) -> MutationAction? {
        if c.literal(#"{"delta":"#) {
            guard let delta = c.int(), c.literal(#","id":"#), let id = c.uuid(),
                c.literal(#","op":"adjust_goals","side":""#)
            else { return nil }
            let side: Side
            if c.literal(#"home"}"#) {
                side = .home
            } else if c.literal(#"away"}"#) {
                side = .away
            } else {
                return nil
            }
            return .adjustGoals(id: MatchID(id), side: side, delta: delta)
        }
        guard c.byte(UInt8(ascii: "{")), let update = matchFields(&c), c.literal(#""id":"#), let id = c.uuid()
        else { return nil }
        if c.literal(#","op":"update_match"}"#) { return .updateMatch(id: MatchID(id), update) }
        if c.literal(#","op":"create_match"}"#) {
            guard let awayGoals = update.awayGoals, let awayPlayers = update.awayPlayers,
                let homeGoals = update.homeGoals, let homePlayers = update.homePlayers
            else { return nil }
            return .createMatch(
                id: MatchID(id),
                homePlayers: homePlayers,
                awayPlayers: awayPlayers,
                homeGoals: homeGoals,
                awayGoals: awayGoals
            )
        }
        // The operations below have no match fields.
        guard update.isEmpty else { return nil }
        if c.literal(#","op":"delete_match"}"#) { return .deleteMatch(id: MatchID(id)) }
        if c.literal(#","op":"delete_player"}"#) { return .deletePlayer(id: PlayerID(id)) }
        guard c.literal(#","name":"#), let name = c.string() else { return nil }
        if c.literal(#","op":"create_player"}"#) { return .createPlayer(id: PlayerID(id), name: name) }
        if c.literal(#","op":"rename_player"}"#) { return .renamePlayer(id: PlayerID(id), name: name) }
        return nil
    }

    // MARK: Shared pieces

    /// The optional match fields in sorted order, each followed by a comma (an `update_match` or `create_match`
    /// action, a lean `match` change): `"away_goals":…,`? `"away_players":…,`? `"home_goals":…,`?
    /// `"home_players":…,`?
    static func matchFields(_ c: inout FrameCursor) -> MatchUpdate? {
        var update = MatchUpdate()
        if c.literal(#""away_goals":"#) {
            guard let goals = c.int(), c.byte(UInt8(ascii: ",")) else { return nil }
            update.awayGoals = goals
        }
        if c.literal(#""away_players":"#) {
            guard let players = playerIDs(&c), c.byte(UInt8(ascii: ",")) else { return nil }
            update.awayPlayers = players
        }
        if c.literal(#""home_goals":"#) {
            guard let goals = c.int(), c.byte(UInt8(ascii: ",")) else { return nil }
            update.homeGoals = goals
        }
        if c.literal(#""home_players":"#) {
            guard let players = playerIDs(&c), c.byte(UInt8(ascii: ",")) else { return nil }
            update.homePlayers = players
        }
        return update
    }

    /// `{"by":"instance","rev":R}`
    private static func stamp(_ c: inout FrameCursor) -> FieldStamp? {
        guard c.literal(#"{"by":"#), let writer = instance(&c), c.literal(#","rev":"#), let revision = c.unsigned(),
            c.byte(UInt8(ascii: "}"))
        else { return nil }
        return FieldStamp(revision: revision, writer: writer)
    }

    static func instance(_ c: inout FrameCursor) -> ClientInstanceID? {
        c.string().flatMap { ClientInstanceID($0) }
    }

    /// `[]` or `["uuid",…]`.
    static func playerIDs(_ c: inout FrameCursor) -> [PlayerID]? {
        guard c.byte(UInt8(ascii: "[")) else { return nil }
        var ids: [PlayerID] = []
        if c.byte(UInt8(ascii: "]")) { return ids }
        ids.reserveCapacity(2)
        while true {
            guard let id = c.uuid() else { return nil }
            ids.append(PlayerID(id))
            if c.byte(UInt8(ascii: ",")) { continue }
            return c.byte(UInt8(ascii: "]")) ? ids : nil
        }
    }
}
