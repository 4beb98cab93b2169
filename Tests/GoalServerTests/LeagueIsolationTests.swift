import Foundation
import GoalModel
import GoalServer
import GoalStore
import GoalTestSlots
import GoalTestSupport
import GoalWire
import Testing

/// Many leagues on one daemon (issue 37 points 1–3), from raw WebSocket sessions over real TLS: a changeset of one
/// league never reaches a session of another, a token confined to league A cannot follow, mutate, see the presence of,
/// or page the history of league B, each league has its own revisions and epoch, and a hello without a league is
/// the default league's as before.
@Suite("leagues: isolation over the wire", .slotted)
struct LeagueIsolationTests {
    /// What the tests share: a daemon on an in-memory store with leagues `office` and `home`, and tokens:
    /// `ann` editor confined to office, `ben` admin in office and viewer in home.
    struct Fixture {
        let daemon: TestDaemon
        let office: LeagueSlug
        let home: LeagueSlug
        let ann: String
        let ben: String
    }

    private func withLeagues(_ body: (Fixture) async throws -> Void) async throws {
        try await withTestDaemon { daemon in
            let office = try daemon.createLeague("office")
            let home = try daemon.createLeague("home")
            let ann = try daemon.createToken("ann", leagues: [office: .editor])
            let ben = try daemon.createToken("ben", leagues: [office: .admin, home: .viewer])
            try await body(Fixture(daemon: daemon, office: office, home: home, ann: ann, ben: ben))
        }
    }

    /// The hello's refusal: the error code and the close code.
    private func refusal(
        _ daemon: TestDaemon,
        token: String,
        league: LeagueSlug?
    ) async throws -> (WireErrorCode?, UInt16?) {
        do {
            let session = try await TestSession.open(daemon, token: token, league: league)
            Issue.record("the hello was welcomed: \(session.welcome)")
            return (nil, nil)
        } catch TestSessionError.refused(let first, let close) {
            guard case .closed(let code, _) = close else { return (first.errorCode, nil) }
            return (first.errorCode, code)
        }
    }

    @Test("a changeset of one league never reaches a session of another, and revisions count per league")
    func changesetsStayInTheirLeague() async throws {
        try await withLeagues { f in
            let admin = f.daemon.tokens.admin
            let inOffice = try await TestSession.open(f.daemon, token: admin, league: f.office)
            let inHome = try await TestSession.open(f.daemon, token: admin, league: f.home)
            let inDefault = try await TestSession.open(f.daemon, token: admin)
            #expect(inOffice.welcome.epoch != inHome.welcome.epoch, "each league has its own epoch")
            #expect(inOffice.welcome.epoch != inDefault.welcome.epoch)

            let officePlayer = PlayerID()
            let officeAnswer = try await inOffice.commit(seq: 1, base: 0, Make.createPlayer("Olga", id: officePlayer))
            #expect(officeAnswer.contains { $0.isAck(seq: 1) })
            #expect(officeAnswer.compactMap(\.changesetRevision) == [1])

            // Home's and the default league's first changesets are their own revision 1, not office's.
            let homePlayer = PlayerID()
            let homeAnswer = try await inHome.commit(seq: 1, base: 0, Make.createPlayer("Hana", id: homePlayer))
            #expect(homeAnswer.compactMap(\.changesetRevision) == [1])
            #expect(Self.createdPlayers(homeAnswer) == [homePlayer], "home's session saw only home's changeset")
            let defaultAnswer = try await inDefault.commit(seq: 1, base: 0, Make.createPlayer("Dora"))
            #expect(defaultAnswer.compactMap(\.changesetRevision) == [1])
            #expect(!Self.createdPlayers(defaultAnswer).contains(officePlayer))
            #expect(!Self.createdPlayers(defaultAnswer).contains(homePlayer))

            // A second office commit: office's session reads revision 2 next, nothing of home or default between.
            let second = try await inOffice.commit(seq: 2, base: 1, Make.createPlayer("Otto"))
            #expect(second.compactMap(\.changesetRevision) == [2])
            #expect(Self.createdPlayers(second).count == 1)
        }
    }

    @Test("a hello without a league follows the default league, whose epoch and revisions are the store's own")
    func noLeagueIsTheDefaultLeague() async throws {
        try await withLeagues { f in
            let epoch = try f.daemon.storage.epoch()
            let plain = try await TestSession.open(f.daemon, token: f.daemon.tokens.editor)
            #expect(plain.welcome.epoch == epoch)
            _ = try await plain.commit(seq: 1, base: 0, Make.createPlayer("Dora"))
            let named = try await TestSession.open(f.daemon, token: f.daemon.tokens.viewer, league: .default)
            #expect(named.welcome.epoch == epoch && named.welcome.head == 1, "naming default is the same league")
        }
    }

    @Test("a token confined to one league is refused elsewhere with league_forbidden (4405), existing or not")
    func confinedTokenRefused() async throws {
        try await withLeagues { f in
            let forbidden = (WireErrorCode.leagueForbidden, CloseCode.leagueForbidden.rawValue)
            let intoHome = try await refusal(f.daemon, token: f.ann, league: f.home)
            #expect(intoHome.0 == forbidden.0 && intoHome.1 == forbidden.1)
            let intoDefault = try await refusal(f.daemon, token: f.ann, league: nil)
            #expect(intoDefault.0 == forbidden.0 && intoDefault.1 == forbidden.1, "no league named: the default one")
            let intoNowhere = try await refusal(f.daemon, token: f.ann, league: try LeagueSlug(validating: "nowhere"))
            #expect(intoNowhere.0 == forbidden.0 && intoNowhere.1 == forbidden.1, "a confined token learns nothing")
            let allowed = try await TestSession.open(f.daemon, token: f.ann, league: f.office)
            #expect(allowed.welcome.role == .editor)
        }
    }

    @Test("a token of every league asking for a league that does not exist gets unknown_league (4404)")
    func unknownLeague() async throws {
        try await withLeagues { f in
            let answer = try await refusal(
                f.daemon,
                token: f.daemon.tokens.admin,
                league: try LeagueSlug(validating: "nowhere")
            )
            #expect(answer.0 == .unknownLeague && answer.1 == CloseCode.unknownLeague.rawValue)
        }
    }

    @Test("a token's role is its role in the session's league: admin in office, viewer in home")
    func rolePerLeague() async throws {
        try await withLeagues { f in
            let office = try await TestSession.open(f.daemon, token: f.ben, league: f.office)
            let home = try await TestSession.open(f.daemon, token: f.ben, league: f.home)
            #expect(office.welcome.role == .admin && home.welcome.role == .viewer)
            let refused = try await home.commit(seq: 1, base: 0, Make.createPlayer("Hana"))
            #expect(refused.last?.isRejected(seq: 1) == true, "a viewer in home cannot mutate home")
            let accepted = try await office.commit(seq: 1, base: 0, Make.createPlayer("Olga"))
            #expect(accepted.last?.isAck(seq: 1) == true)
        }
    }

    @Test("presence lists only the members of the session's own league")
    func presencePerLeague() async throws {
        try await withLeagues { f in
            let inHome = try await TestSession.open(f.daemon, token: f.ben, presence: .all, league: f.home)
            let inOffice = try await TestSession.open(f.daemon, token: f.ann, presence: .all, league: f.office)
            let state = try await inOffice.collect { if case .presenceState = $0 { true } else { false } }
            guard case .presenceState(let members) = state.last else {
                Issue.record("no presence_state: \(state)")
                return
            }
            #expect(members.contains { $0.clientInstance == inOffice.instance })
            #expect(!members.contains { $0.clientInstance == inHome.instance }, "home's member is not in office's list")
        }
    }

    @Test("history pages only the session's league: another league's entity is unknown here")
    func historyPerLeague() async throws {
        try await withLeagues { f in
            let inHome = try await TestSession.open(f.daemon, token: f.daemon.tokens.admin, league: f.home)
            let homePlayer = PlayerID()
            _ = try await inHome.commit(seq: 1, base: 0, Make.createPlayer("Hana", id: homePlayer))
            let inOffice = try await TestSession.open(f.daemon, token: f.ann, league: f.office)
            let answer = try await inOffice.historyAnswer(HistoryRequest(entity: .player(homePlayer)))
            guard case .refused(let refusal, _) = answer.result else {
                Issue.record("office's history answered for home's player: \(answer)")
                return
            }
            #expect(refusal == .unknownEntity, "office's log has nothing of home's player")
            let homeAnswer = try await inHome.page(HistoryRequest(entity: .player(homePlayer)))
            #expect(homeAnswer.entries.map(\.revision) == [1], "home's own session pages it")
        }
    }

    @Test("a client resumes in its league: since and epoch of that league give a backlog")
    func resumeInALeague() async throws {
        try await withLeagues { f in
            let first = try await TestSession.open(f.daemon, token: f.ann, league: f.office)
            _ = try await first.commit(seq: 1, base: 0, Make.createPlayer("Olga"))
            _ = try await first.commit(seq: 2, base: 1, Make.createPlayer("Otto"))
            let again = try await TestSession.open(
                f.daemon,
                token: f.ann,
                since: 1,
                epoch: first.welcome.epoch,
                league: f.office
            )
            #expect(again.welcome.mode == .backlog && again.welcome.head == 2)
        }
    }

    @Test("revoking a token closes its sessions in every league (4403); other tokens' sessions stay")
    func revocationReachesEveryLeague() async throws {
        try await withLeagues { f in
            let inOffice = try await TestSession.open(f.daemon, token: f.ben, league: f.office)
            let inHome = try await TestSession.open(f.daemon, token: f.ben, league: f.home)
            let other = try await TestSession.open(f.daemon, token: f.ann, league: f.office)
            _ = try f.daemon.storage.revokeToken(named: "ben", at: Timestamp(millisecondsSince1970: 1))
            for session in [inOffice, inHome] {
                let (messages, code) = try await session.readUntilClosed(timeout: .seconds(15))
                #expect(messages.last?.errorCode == .tokenRevoked && code == 4403)
            }
            let answer = try await other.commit(seq: 1, base: 0, Make.createPlayer("Still here"))
            #expect(answer.last?.isAck(seq: 1) == true)
        }
    }

    private static func createdPlayers(_ messages: [ServerMessage]) -> [PlayerID] {
        messages.compactMap { message -> PlayerID? in
            guard case .changeset(let changeset) = message, case .createPlayer(let id, _) = changeset.action else {
                return nil
            }
            return id
        }
    }
}
