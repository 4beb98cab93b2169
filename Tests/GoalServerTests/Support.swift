import Foundation
import GoalModel
import GoalServer
import GoalTestSupport
import GoalTransport
import GoalWire

/// Small builders shared by the server tests.
enum Make {
    static func createPlayer(_ name: String, id: PlayerID = PlayerID()) -> MutationAction {
        .createPlayer(id: id, name: name)
    }

    static func createMatch(
        id: MatchID = MatchID(),
        home: [PlayerID],
        away: [PlayerID],
        homeGoals: Int = 0,
        awayGoals: Int = 0
    ) -> MutationAction {
        .createMatch(id: id, homePlayers: home, awayPlayers: away, homeGoals: homeGoals, awayGoals: awayGoals)
    }
}

extension ServerMessage {
    /// The changeset's revision, if this is a changeset.
    var changesetRevision: Revision? {
        if case .changeset(let changeset) = self { return changeset.revision }
        return nil
    }

    var isAck: Bool {
        if case .ack = self { return true }
        return false
    }

    func isAck(seq expected: UInt64) -> Bool {
        if case .ack(let seq, _, _) = self { return seq == expected }
        return false
    }

    func isRejected(seq expected: UInt64) -> Bool {
        if case .rejected(let seq, _) = self { return seq == expected }
        return false
    }

    var errorCode: WireErrorCode? {
        if case .error(let code, _) = self { return code }
        return nil
    }
}

extension TestSession {
    /// Sends a mutation and reads until its answer (ack or rejected); returns everything read, the answer last.
    func commit(seq: UInt64, base: Revision, _ action: MutationAction) async throws -> [ServerMessage] {
        try await send(mutation(seq: seq, base: base, action))
        return try await collect { $0.isAck(seq: seq) || $0.isRejected(seq: seq) || $0.errorCode != nil }
    }
}
