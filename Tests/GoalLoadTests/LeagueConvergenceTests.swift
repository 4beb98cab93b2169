import GoalModel
import GoalTestSlots
import GoalWire
import Testing

@testable import goal_load

/// Convergence per league (issue 37 point 7): each league's subscribers are held to their own league's head and
/// digest, a league that did not converge fails the run and names itself, and the report shows each league.
@Suite("goal-load over several leagues: convergence per league", .slotted)
struct LeagueConvergenceTests {
    private let digestA = ChangesetFrame.digest(previous: .genesis, payload: Array("a".utf8))
    private let digestB = ChangesetFrame.digest(previous: .genesis, payload: Array("b".utf8))

    private func subscriber(_ revision: UInt64, _ digest: Digest) -> SubscriberSnapshot {
        SubscriberSnapshot(
            phase: .live,
            revision: revision,
            digest: digest,
            deliveries: 0,
            bytes: 0,
            reconnects: 0,
            failedAttempts: 0,
            sheddings: 0,
            everConnected: true,
            problems: [],
            problemCount: 0,
            replica: nil,
            catchUpSeconds: nil
        )
    }

    private func view(_ head: UInt64, _ digest: Digest) -> Result<ServerView, LoadError> {
        .success(ServerView(head: head, headDigest: digest, epoch: LeagueEpoch(rawValue: "e\(head)")))
    }

    @Test func eachLeagueIsHeldToItsOwnHead() throws {
        let spread = try LeagueSpread(count: 2, prefix: nil)
        // Subscribers 0 and 2 follow load-1 (head 7, digest A), 1 and 3 load-2 (head 3, digest B).
        let subscribers = [
            subscriber(7, digestA), subscriber(3, digestB), subscriber(7, digestA), subscriber(3, digestB),
        ]
        let leagues = try #require(
            LoadRunner.leagues(
                spread,
                subscribers: subscribers,
                writers: 3,
                views: [[view(7, digestA)], [view(3, digestB)]]
            )
        )
        #expect(leagues.map(\.id) == ["load-1", "load-2"])
        #expect(leagues.map(\.subscribers) == [2, 2])
        #expect(leagues.map(\.writers) == [2, 1])
        #expect(leagues.map(\.convergence.head) == [7, 3])
        #expect(leagues.allSatisfy { $0.convergence.converged })
        let total = LoadReport.combined(leagues)
        #expect(total.converged)
        #expect(total.subscribersAtHead == 4)
        #expect(total.subscribersChecked == 4)
        #expect(total.head == 7)
    }

    @Test func oneLeagueBehindFailsTheRunAndNamesItself() throws {
        let spread = try LeagueSpread(count: 2, prefix: "site")
        // The second subscriber of site-2 stopped short of its league's head; site-1 converged.
        let subscribers = [
            subscriber(7, digestA), subscriber(3, digestB), subscriber(7, digestA), subscriber(2, digestA),
        ]
        let leagues = try #require(
            LoadRunner.leagues(
                spread,
                subscribers: subscribers,
                writers: 0,
                views: [[view(7, digestA)], [view(3, digestB)]]
            )
        )
        #expect(leagues[0].convergence.converged)
        #expect(!leagues[1].convergence.converged)
        #expect(leagues[1].convergence.subscribersAtHead == 1)
        let total = LoadReport.combined(leagues)
        #expect(!total.converged)
        #expect(total.digestMismatches == 1)
        #expect(total.problems.contains("league site-2: subscriber 3 stopped at revision 2, head is 3"))
    }

    @Test func aSubscriberAtAnotherLeaguesHeadDoesNotCount() throws {
        let spread = try LeagueSpread(count: 2, prefix: nil)
        // Both leagues at revision 3 but with different digests: a subscriber of load-2 holding load-1's digest
        // (a changeset crossing leagues) is a mismatch.
        let subscribers = [subscriber(3, digestA), subscriber(3, digestA)]
        let leagues = try #require(
            LoadRunner.leagues(
                spread,
                subscribers: subscribers,
                writers: 0,
                views: [[view(3, digestA)], [view(3, digestB)]]
            )
        )
        #expect(!LoadReport.combined(leagues).converged)
        #expect(leagues[1].convergence.problems == ["subscriber 1: digest at head differs"])
    }

    @Test func aLeagueWhoseHeadCannotBeReadFails() throws {
        let spread = try LeagueSpread(count: 2, prefix: nil)
        let leagues = try #require(
            LoadRunner.leagues(
                spread,
                subscribers: [subscriber(1, digestA), subscriber(0, .genesis)],
                writers: 0,
                views: [[view(1, digestA)], [.failure(.connect("unknown_league"))]]
            )
        )
        #expect(leagues[0].convergence.converged)
        #expect(!leagues[1].convergence.converged)
        #expect(!LoadReport.combined(leagues).converged)
        #expect(LoadReport.combined([]).converged == false, "no league proves nothing")
    }

    @Test func theDefaultLeagueAloneHasNoLeagueSection() {
        #expect(
            LoadRunner.leagues(
                .defaultLeague,
                subscribers: [subscriber(1, digestA)],
                writers: 1,
                views: [[view(1, digestA)]]
            )
                == nil
        )
    }

    @Test func theTextReportListsFewLeaguesAllAndManyOnlyTheFailingOnes() throws {
        func league(_ number: Int, converged: Bool) -> LoadReport.League {
            let verdict = LoadRunner.verdict(
                subscribers: [subscriber(converged ? 4 : 3, digestA)],
                views: [view(4, digestA)],
                numbers: [number - 1]
            )
            return LoadReport.League(id: "load-\(number)", subscribers: 1, writers: 1, convergence: verdict)
        }
        var report = ReportJSONTests.report(optionals: false)
        report.leagues = (1...3).map { league($0, converged: true) }
        report.convergence = LoadReport.combined(report.leagues ?? [])
        let few = report.text
        #expect(few.contains("leagues: 3 (load-1 … load-3), 3 converged"))
        #expect(few.contains("  league load-2: 1 subscribers, 1 writers, 1/1 at head r4 "))
        #expect(few.contains("convergence: OK — 3/3 leagues; 3/3 subscribers at their league's head"))
        #expect(!few.contains("convergence: OK — head"), "no single head line with several leagues")

        report.leagues = (1...12).map { league($0, converged: $0 != 7) }
        report.convergence = LoadReport.combined(report.leagues ?? [])
        let many = report.text
        #expect(many.contains("leagues: 12 (load-1 … load-12), 11 converged"))
        #expect(many.contains("  league load-7: 1 subscribers, 1 writers, 0/1 at head r4 "))
        #expect(!many.contains("  league load-1:"), "beyond 10 leagues only the failing ones get a line")
        #expect(many.contains("convergence: FAILED — 11/12 leagues"))
        #expect(many.contains("  problem: league load-7: subscriber 6 stopped at revision 3, head is 4"))
    }

    @Test func nodesCountSubscribersAtTheirOwnLeaguesHead() throws {
        // Two nodes, two leagues; subscriber i follows league i % 2 and sits on node i / 2.
        var subscribers = [
            subscriber(7, digestA), subscriber(3, digestB), subscriber(7, digestA), subscriber(2, digestB),
        ]
        subscribers[2].server = 1
        subscribers[3].server = 1
        let views = [[view(7, digestA), view(7, digestA)], [view(3, digestB), view(3, digestB)]]
        let nodes = LoadRunner.nodes(
            urls: ["a", "b"],
            subscribers: subscribers,
            writers: [0, 1, 1],
            views: views,
            leagueOf: { $0 % 2 }
        )
        #expect(nodes.map(\.subscribers) == [2, 2])
        #expect(nodes.map(\.subscribersAtHead) == [2, 1])
        #expect(nodes.map(\.writers) == [1, 2])
        #expect(nodes.allSatisfy { $0.head == nil }, "each league has its own head")
    }
}
