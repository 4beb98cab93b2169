import Foundation
import GoalClient
import GoalModel
import GoalReactive
import GoalTestSlots
import GoalTestSupport
import GoalWire
import Testing

@Suite("GoalClient against a simulated server: resume by backlog, snapshot, exactly once across a lost ack", .slotted)
struct ClientResumeTests {
    let scheduler = TestScheduler()

    func client(_ server: SimulatedServer, _ instance: String) -> GoalClient {
        GoalClient(
            configuration: ClientConfiguration(token: "t", serverName: "sim"),
            transport: server,
            scheduler: scheduler,
            minter: InMemoryMutationIDMinter(instance: ClientInstanceID(instance)!),
            jitter: FixedJitter()
        )
    }

    @Test func aClientResumesWithABacklogAndConvergesOnTheSameDigest() {
        var script = LeagueScript()
        script.player("Ada")
        let server = SimulatedServer(league: script.league)
        let a = client(server, "a")
        a.start()
        scheduler.advance()
        #expect(server.modes == [.snapshot], "an empty replica gets a snapshot")
        #expect(a.replica.value == ReplicaState(script.league.snapshot))

        server.dropAll()
        scheduler.advance()
        script.player("Bo")
        script.player("Cy")
        scheduler.advance(by: 0.5)
        #expect(server.modes == [.snapshot, .backlog])
        #expect(a.status.value == .live(roundTrip: nil))
        #expect(a.replica.value == ReplicaState(script.league.snapshot))
        #expect(a.replica.value.digest == script.league.history.last?.digest)

        server.dropAll(code: 4008)
        scheduler.advance()
        scheduler.advance(by: 0.5)
        #expect(server.modes == [.snapshot, .backlog, .live], "nothing to catch up")
    }

    @Test func aReplicaFromAnotherHistoryGetsASnapshot() throws {
        var script = LeagueScript()
        script.player("Ada")
        var other = LeagueScript()
        other.player("Zed")
        var foreign = ReplicaState()
        foreign.adopt(epoch: LeagueEpoch(rawValue: "test-epoch"))
        _ = try foreign.apply(other.league.history[0])
        let server = SimulatedServer(league: script.league)
        let a = GoalClient(
            configuration: ClientConfiguration(token: "t", serverName: "sim"),
            transport: server,
            scheduler: scheduler,
            replica: foreign
        )
        a.start()
        scheduler.advance()
        #expect(server.modes == [.snapshot], "same epoch and revision, different digest")
        #expect(a.replica.value == ReplicaState(script.league.snapshot))
    }

    @Test func anOverloadedEditIsAppliedExactlyOnceAlsoBehindMoreThanKLaterMutations() {
        let script = LeagueScript()
        let server = SimulatedServer(league: script.league)
        let a = client(server, "a")
        a.start()
        scheduler.advance()
        var answers: [UInt64: [Result<MutationAck, MutationError>]] = [:]
        server.overload(1)
        // Seq 1 is refused as overloaded; 39 more follow it (K = 32 results are kept per client instance).
        for index in 0..<40 {
            a.submit(.createPlayer(id: PlayerID(), name: "P\(index)"), base: 0).startWithResult { result in
                let seq =
                    switch result {
                    case .success(let ack): ack.id.seq
                    case .failure(let error): error.id.seq
                    }
                answers[seq, default: []].append(result)
            }
        }
        scheduler.advance()
        scheduler.advance(by: 0.25)
        scheduler.advance()
        #expect(answers.count == 40)
        #expect(answers.values.allSatisfy { $0.count == 1 }, "each answered once")
        let failures = answers.values.flatMap { $0 }.filter { if case .failure = $0 { true } else { false } }
        #expect(failures.isEmpty, "\(failures)")
        #expect(script.league.revision == 40, "every edit applied, the overloaded one too, none twice")
        #expect(a.pendingMutations.value.isEmpty)
    }

    @Test func aMutationWhoseAckWasLostIsResentWithItsIdAndAnsweredOnce() {
        let script = LeagueScript()
        let server = SimulatedServer(league: script.league)
        let a = client(server, "a")
        let b = client(server, "b")
        a.start()
        b.start()
        scheduler.advance()
        var acks: [MutationAck] = []
        server.loseAnswers(1)
        a.submit(.createPlayer(id: PlayerID(), name: "Ada"), base: 0).startWithResult {
            if case .success(let ack) = $0 { acks.append(ack) }
        }
        scheduler.advance()
        #expect(acks == [], "committed, but the answer was lost")
        #expect(a.pendingMutations.value.count == 1)
        #expect(b.replica.value.revision == 1)

        server.dropAll()
        scheduler.advance()
        scheduler.advance(by: 0.5)
        #expect(
            acks == [MutationAck(id: MutationID(instance: ClientInstanceID("a")!, seq: 1), revision: 1, noop: false)]
        )
        #expect(script.league.revision == 1, "the re-sent mutation was not applied twice")
        #expect(a.pendingMutations.value.isEmpty)
        #expect(a.replica.value == b.replica.value)
    }

    @Test func concurrentEditsFromTwoClientsConflictOrMergeAsTheEngineDecides() {
        var script = LeagueScript()
        script.player("Ada")
        script.player("Bo")
        let match = MatchID()
        script.commit(
            .createMatch(
                id: match,
                homePlayers: [script.players[0]],
                awayPlayers: [script.players[1]],
                homeGoals: 0,
                awayGoals: 0
            )
        )
        let server = SimulatedServer(league: script.league)
        let a = client(server, "a")
        let b = client(server, "b")
        a.start()
        b.start()
        scheduler.advance()
        var results: [String] = []
        func record(_ name: String, _ producer: SignalProducer<MutationAck, MutationError>) {
            producer.startWithResult { result in
                switch result {
                case .success(let ack): results.append("\(name) ack r\(ack.revision)")
                case .failure(let error):
                    results.append("\(name) \(error.code?.rawValue ?? "?") \(error.rejection?.fields ?? [])")
                }
            }
        }
        record("a", a.submit(.adjustGoals(id: match, side: .home, delta: 1), base: 3))
        record("b", b.submit(.adjustGoals(id: match, side: .home, delta: 1), base: 3))
        record("a", a.submit(.updateMatch(id: match, MatchUpdate(awayGoals: 4)), base: 3))
        record("b", b.submit(.updateMatch(id: match, MatchUpdate(awayGoals: 5)), base: 3))
        scheduler.advance()
        #expect(results == ["a ack r4", "b ack r5", "a ack r6", "b conflict [\"away_goals\"]"])
        #expect(a.replica.value.matches[match]?.homeGoals == 2)
        #expect(b.replica.value.matches[match]?.awayGoals == 4)
        #expect(a.replica.value == b.replica.value)
    }
}
