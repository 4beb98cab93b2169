import Foundation
import GoalClient
import GoalModel
import GoalTestSlots
import GoalTestSupport
import GoalWire
import Testing

@Suite("ReplicaState: the digest chain checked from the frames' own bytes", .slotted)
struct ReplicaPayloadTests {
    /// A league's history as goald frames it (`ChangesetFrame.encode`, digests chained).
    static func frames() -> [[UInt8]] {
        var script = LeagueScript()
        for name in ["Ada", "Bo", "Cy", "Dee"] { script.player(name) }
        let match = MatchID()
        let players = script.players
        script.commit(
            .createMatch(id: match, homePlayers: [players[0]], awayPlayers: [players[1]], homeGoals: 0, awayGoals: 0)
        )
        for goal in 0..<20 {
            script.commit(.adjustGoals(id: match, side: goal % 3 == 0 ? .away : .home, delta: 1))
        }
        script.commit(.updateMatch(id: match, MatchUpdate(homePlayers: [players[2], players[3]])))
        script.commit(.renamePlayer(id: players[1], name: "Bob"))
        return script.league.history.map { ChangesetFrame.encode(knownDigest: $0).bytes }
    }

    @Test func aChainDecodedWithPayloadsVerifiesEndToEnd() throws {
        let frames = Self.frames()
        var replica = ReplicaState()
        var reference = ReplicaState()
        for frame in frames {
            let (message, payload) = try ServerMessage.decodeWithPayload(frame)
            guard case .changeset(let changeset) = message else {
                Issue.record("not a changeset")
                return
            }
            #expect(payload != nil, "goald's frames are read by the direct reader")
            #expect(try replica.apply(changeset, payload: payload))
            #expect(try reference.apply(changeset))
        }
        #expect(replica == reference)
        #expect(replica.revision == Revision(frames.count))
        #expect(replica.digest == ChangesetFrame.peek(frames.last!)?.digest)
    }

    @Test func aTamperedFrameIsRefusedAndLeavesTheReplicaAsItWas() throws {
        let frames = Self.frames()
        var replica = ReplicaState()
        for frame in frames.dropLast() {
            let (message, payload) = try ServerMessage.decodeWithPayload(frame)
            guard case .changeset(let changeset) = message else { return }
            try replica.apply(changeset, payload: payload)
        }
        // The rename's new name, "Bob" → "Bop": still goald's layout, read by the direct reader.
        let text = String(decoding: frames[frames.count - 1], as: UTF8.self)
        #expect(text.contains(#""name":"Bob""#))
        let tampered = Array(text.replacingOccurrences(of: #""name":"Bob""#, with: #""name":"Bop""#).utf8)
        let (message, payload) = try ServerMessage.decodeWithPayload(tampered)
        guard case .changeset(let changeset) = message else {
            Issue.record("not a changeset")
            return
        }
        #expect(payload != nil)
        let before = replica
        #expect(throws: ReplicaError.digestMismatch(revision: changeset.revision)) {
            try replica.apply(changeset, payload: payload)
        }
        #expect(throws: ReplicaError.digestMismatch(revision: changeset.revision)) { try replica.apply(changeset) }
        #expect(replica == before)
    }
}
