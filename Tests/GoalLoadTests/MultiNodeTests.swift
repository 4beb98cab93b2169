import ArgumentParser
import Foundation
import GoalClient
import GoalModel
import GoalPostgres
import GoalServer
import GoalStore
import GoalTestSlots
import GoalTestSupport
import GoalTransport
import GoalWire
import Synchronization
import Testing

@testable import goal_load

/// `goal-load --url A --url B …` (issue 15 point 5): the URLs are parsed in order, connections are spread over
/// them round robin, convergence needs every node and every subscriber at one head digest, and the report counts
/// per URL.
@Suite("goal-load over several nodes", .slotted)
struct MultiNodeTests {
    @Test func repeatedURLsAreKeptInOrderAndConnectionsGoRoundRobin() throws {
        let options = try LoadOptions.parse([
            "--insecure", "--url", "wss://127.0.0.1:7443", "--url", "wss://127.0.0.2:7444", "--url",
            "wss://127.0.0.3:7445",
        ])
        let configuration = try options.configuration(environment: ["GOAL_TOKEN": "t"])
        #expect(configuration.endpoints.map(\.port) == [7443, 7444, 7445])
        #expect(configuration.endpoint.port == 7443, "setup goes to the first")
        #expect((0..<7).map(configuration.server(forWriter:)) == [0, 1, 2, 0, 1, 2, 0])
        #expect((0..<7).map(configuration.server(forSubscriber:)) == [0, 1, 2, 0, 1, 2, 0])
        let one = try LoadOptions.parse(["--insecure"]).configuration(environment: ["GOAL_TOKEN": "t"])
        #expect(one.endpoints.map(\.description) == ["wss://127.0.0.1:7443/v1/stream"])
        #expect((0..<3).map(one.server(forWriter:)) == [0, 0, 0])
        let bad = try LoadOptions.parse(["--insecure", "--url", "wss://127.0.0.1:7443", "--url", "ws://b:1"])
        #expect(throws: LoadError.self) { try bad.configuration(environment: ["GOAL_TOKEN": "t"]) }
    }

    @Test("--route-by-league starts every connection of league k on node k mod nodes; without it, round robin")
    func routeByLeagueKeepsALeagueOnOneNode() throws {
        let urls = ["--url", "wss://127.0.0.1:7443", "--url", "wss://127.0.0.2:7444", "--url", "wss://127.0.0.3:7445"]
        let routed = try LoadOptions.parse(["--insecure", "--leagues", "4", "--route-by-league"] + urls)
            .configuration(environment: ["GOAL_TOKEN": "t"])
        // Writer and subscriber j write and follow league j mod 4; league k lives on node k mod 3.
        #expect((0..<8).map(routed.server(forWriter:)) == [0, 1, 2, 0, 0, 1, 2, 0])
        #expect((0..<8).map(routed.server(forSubscriber:)) == [0, 1, 2, 0, 0, 1, 2, 0])
        for writer in 0..<40 {
            let league = routed.leagues.league(ofWriter: writer)
            #expect(routed.server(forWriter: writer) == league % 3, "writer \(writer) of league \(league)")
        }
        let roundRobin = try LoadOptions.parse(["--insecure", "--leagues", "4"] + urls)
            .configuration(environment: ["GOAL_TOKEN": "t"])
        #expect((0..<8).map(roundRobin.server(forWriter:)) == [0, 1, 2, 0, 1, 2, 0, 1])
    }

    @Test func sourceAddressesAreUsedOnlyWhenEveryNodeIsOnLoopback() throws {
        let loopback = [
            try ServerEndpoint(parsing: "wss://127.0.0.1:7443"), try ServerEndpoint(parsing: "wss://127.0.0.2:7444"),
        ]
        #expect(SourceAddresses(endpoints: loopback, perAddress: 400).enabled)
        let mixed = loopback + [try ServerEndpoint(parsing: "wss://goald.example:7443")]
        #expect(!SourceAddresses(endpoints: mixed, perAddress: 400).enabled)
    }

    private func subscriber(revision: UInt64, digest: Digest, server: Int) -> SubscriberSnapshot {
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
            catchUpSeconds: nil,
            server: server
        )
    }

    @Test func convergenceNeedsEveryNodeAtOneHeadDigest() {
        let digest = ChangesetFrame.digest(previous: .genesis, payload: Array("x".utf8))
        let other = ChangesetFrame.digest(previous: .genesis, payload: Array("y".utf8))
        let head = ServerView(head: 5, headDigest: digest, epoch: LeagueEpoch(rawValue: "e1"))
        let subscribers = [
            subscriber(revision: 5, digest: digest, server: 0), subscriber(revision: 5, digest: digest, server: 1),
        ]
        let agreed = LoadRunner.verdict(subscribers: subscribers, views: [.success(head), .success(head)])
        #expect(agreed.converged, "\(agreed.problems)")
        #expect(agreed.subscribersAtHead == 2)

        let behind = LoadRunner.verdict(
            subscribers: subscribers,
            views: [
                .success(head), .success(ServerView(head: 4, headDigest: other, epoch: LeagueEpoch(rawValue: "e1"))),
            ]
        )
        #expect(!behind.converged)
        #expect(behind.problems.contains { $0.hasPrefix("node 2 is at r4") })

        let forked = LoadRunner.verdict(
            subscribers: subscribers,
            views: [
                .success(head), .success(ServerView(head: 5, headDigest: other, epoch: LeagueEpoch(rawValue: "e1"))),
            ]
        )
        #expect(!forked.converged)

        let unread = LoadRunner.verdict(subscribers: subscribers, views: [.success(head), .failure(.connect("down"))])
        #expect(!unread.converged)
        #expect(unread.problems.contains { $0.contains("node 2 of 2") })

        let lagging = LoadRunner.verdict(
            subscribers: [
                subscriber(revision: 5, digest: digest, server: 0), subscriber(revision: 4, digest: other, server: 1),
            ],
            views: [.success(head), .success(head)]
        )
        #expect(!lagging.converged)
    }

    @Test func theReportCountsPerURL() {
        let digest = ChangesetFrame.digest(previous: .genesis, payload: Array("x".utf8))
        let head = ServerView(head: 5, headDigest: digest, epoch: LeagueEpoch(rawValue: "e1"))
        let nodes = LoadRunner.nodes(
            urls: ["wss://a", "wss://b"],
            subscribers: [
                subscriber(revision: 5, digest: digest, server: 0), subscriber(revision: 5, digest: digest, server: 1),
                subscriber(revision: 4, digest: digest, server: 0),
            ],
            writers: [0, 1, 0, 1, 0],
            views: [.success(head), .failure(.connect("down"))]
        )
        #expect(nodes.map(\.url) == ["wss://a", "wss://b"])
        #expect(nodes.map(\.subscribers) == [2, 1])
        #expect(nodes.map(\.writers) == [3, 2])
        #expect(nodes.map(\.subscribersAtHead) == [1, 0])
        #expect(nodes.map(\.head) == [5, nil])
    }
}
