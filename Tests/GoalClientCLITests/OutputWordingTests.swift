import Foundation
import GoalClient
import GoalModel
import GoalTestSlots
import GoalWire
import Testing

@testable import goal_client

@Suite("goal-client's wording, as pure functions: tail's columns, the needed role, names for ids (issue 16)", .slotted)
struct OutputWordingTests {
    static let stamp = FieldStamp(revision: 1, writer: .server)
    static let alice = Player(id: PlayerID(), name: "Alice", nameKey: "alice", created: stamp, nameStamp: stamp)
    static let bob = Player(id: PlayerID(), name: "Bob", nameKey: "bob", created: stamp, nameStamp: stamp)

    static func changeset(revision: Revision, author: String, at milliseconds: Int64) -> Changeset {
        Changeset(
            revision: revision,
            mutationID: nil,
            author: author,
            time: Timestamp(millisecondsSince1970: milliseconds),
            action: .createPlayer(id: alice.id, name: "Alice"),
            changes: [.playerUpserted(alice)],
            digest: .genesis
        )
    }

    @Test("tail lines: the time (with the date when not today), then revision and author padded to fixed columns")
    func tailColumns() throws {
        let utc = try #require(TimeZone(identifier: "UTC"))
        // 2026-01-01 09:05:07.250 UTC.
        let time: Int64 = 1_767_258_307_250
        let sameDay = Date(timeIntervalSince1970: 1_767_258_307 + 3600)
        let short = Self.alice.id.shortID
        let first = ChangesetLine.text(
            Self.changeset(revision: 4, author: "alice", at: time),
            names: [:],
            matches: [:],
            now: sameDay,
            timeZone: utc
        )
        let second = ChangesetLine.text(
            Self.changeset(revision: 12345, author: "bob.the.scorer", at: time),
            names: [:],
            matches: [:],
            now: sameDay,
            timeZone: utc
        )
        #expect(first == "09:05:07  r4     alice         \(short)  Alice  (new player)")
        #expect(second == "09:05:07  r12345 bob.the.scorer  \(short)  Alice  (new player)")
        let nextDay = ChangesetLine.text(
            Self.changeset(revision: 4, author: "alice", at: time),
            names: [:],
            matches: [:],
            now: sameDay.addingTimeInterval(86_400),
            timeZone: utc
        )
        #expect(nextDay.hasPrefix("2026-01-01 09:05:07  r4     alice  "))
        let paris = try #require(TimeZone(identifier: "Europe/Paris"))
        #expect(
            ChangesetLine.clock(Timestamp(millisecondsSince1970: time), now: sameDay, timeZone: paris) == "10:05:07"
        )
        // To the minute, as `goal-client history` prints it; with the date on another day.
        let stamp = Timestamp(millisecondsSince1970: time)
        #expect(ChangesetLine.clock(stamp, now: sameDay, timeZone: paris, seconds: false) == "10:05")
        #expect(
            ChangesetLine.clock(stamp, now: .distantPast, timeZone: utc, seconds: false) == "2026-01-01 09:05"
        )
    }

    @Test("the role a refusal names is the least role that permits the action")
    func neededRole() {
        #expect(RefusalText.neededRole(for: .deletePlayer(id: Self.alice.id)) == .admin)
        #expect(RefusalText.neededRole(for: .createPlayer(id: Self.alice.id, name: "A")) == .editor)
        #expect(RefusalText.neededRole(for: .deleteMatch(id: MatchID())) == .editor)
        #expect(RefusalText.roleHint(for: .deletePlayer(id: Self.alice.id)).hasPrefix("this needs an admin token"))
    }

    @Test("a refusal's player ids become names, match ids short ids with players; unknown ids stay")
    func idsBecomeNames() {
        let match = Match(
            id: MatchID(),
            homePlayers: [Self.alice.id],
            awayPlayers: [Self.bob.id],
            homeGoals: 1,
            awayGoals: 0,
            created: Self.stamp
        )
        let replica = ReplicaState(
            Snapshot(
                revision: 3,
                epoch: LeagueEpoch(rawValue: "e"),
                digest: .genesis,
                players: [Self.alice, Self.bob],
                matches: [match],
                ratings: []
            )
        )
        let unknown = PlayerID()
        #expect(
            RefusalText.naming("player \(Self.alice.id) does not exist", in: replica)
                == "player \"Alice\" does not exist"
        )
        #expect(
            RefusalText.naming("match \(match.id) is gone", in: replica)
                == "match \(match.id.shortID) (Alice vs Bob) is gone"
        )
        #expect(RefusalText.naming("player \(unknown) x", in: replica) == "player \(unknown) x")
        // The server's rules name players and matches by short id (issue 35 point 5).
        #expect(
            RefusalText.naming("player \(Self.alice.id.shortID) cannot play on both sides", in: replica)
                == "player \"Alice\" cannot play on both sides"
        )
        #expect(
            RefusalText.naming("another client changed home_goals of match \(match.id.shortID) since", in: replica)
                == "another client changed home_goals of match \(match.id.shortID) (Alice vs Bob) since"
        )
        #expect(
            RefusalText.naming("player \(unknown.shortID) is listed twice", in: replica)
                == "player \(unknown.shortID) is listed twice"
        )
    }
}
