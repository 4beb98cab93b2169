import GoalClient
import GoalModel
import GoalTestSlots
import GoalWire
import Testing

@testable import GoalViewModels

/// Issue 35 point 5: the UI's banner names players and matches, never their ids (the server's rules name them by
/// short id: `player 52217072 cannot play on both sides`).
@Suite("EntityNaming: refusals in the UI name players and matches by name", .slotted)
struct EntityNamingTests {
    static let stamp = FieldStamp(revision: 1, writer: .server)
    static let ada = Player(id: PlayerID(), name: "Ada", nameKey: "ada", created: stamp, nameStamp: stamp)
    static let bea = Player(id: PlayerID(), name: "Bea", nameKey: "bea", created: stamp, nameStamp: stamp)
    static let match = Match(
        id: MatchID(),
        homePlayers: [ada.id],
        awayPlayers: [bea.id],
        homeGoals: 2,
        awayGoals: 1,
        created: stamp
    )
    static let replica = ReplicaState(
        Snapshot(
            revision: 3,
            epoch: LeagueEpoch(rawValue: "e"),
            digest: .genesis,
            players: [ada, bea],
            matches: [match],
            ratings: []
        )
    )

    static func refused(_ code: MutationRejection.Code, _ message: String) -> MutationError {
        MutationError(
            .rejected(MutationRejection(code: code, message: message)),
            id: MutationID(instance: .random(), seq: 1)
        )
    }

    @Test("the banner for a rule the server checks by short id names the player")
    func ruleRefusalNamesThePlayer() {
        let error = Self.refused(.playerOnBothSides, "player \(Self.ada.id.shortID) cannot play on both sides")
        #expect(
            error.alertMessage(replica: Self.replica)
                == "refused (player_on_both_sides): player \"Ada\" cannot play on both sides"
        )
    }

    @Test("a match reads as its short id and players, from a full or a short id; unknown ids stay")
    func matchesByLabel() {
        let label = "\(Self.match.id.shortID) (Ada vs Bea)"
        #expect(EntityNaming.matchLabel(Self.match, in: Self.replica) == label)
        let gone = Self.refused(.notFound, "match \(Self.match.id) does not exist")
        #expect(gone.alertMessage(replica: Self.replica) == "refused (not_found): match \(label) does not exist")
        #expect(EntityNaming.naming("match \(Self.match.id.shortID) x", in: Self.replica) == "match \(label) x")
        let stranger = PlayerID()
        #expect(EntityNaming.naming("player \(stranger) x", in: Self.replica) == "player \(stranger) x")
        #expect(EntityNaming.naming("player \(stranger.shortID) x", in: Self.replica) == "player \(stranger.shortID) x")
        // An unknown full id whose first 8 digits are a known player's short id is not half-replaced.
        let lookalike = Self.ada.id.shortID + String(stranger.description.dropFirst(8))
        #expect(EntityNaming.naming("player \(lookalike) x", in: Self.replica) == "player \(lookalike) x")
    }
}
