import Foundation
import GoalModel
import GoalServer
import GoalStore
import GoalTestSlots
import GoalTestSupport
import GoalWire
import Testing

/// `history` over real TLS sessions (issue 20, PROTOCOL.md §4): several clients edit one match, the daemon restarts
/// on the same SQLite file, and a viewer pages through who changed what; refusals keep the session.
@Suite("entity history over the wire", .slotted)
struct HistoryTests {
    @Test("a match edited by three clients, read by a viewer after a restart, paged newest first")
    func editedByThreeClientsAcrossARestart() async throws {
        let directory = try TestCertificates.makeTemporaryDirectory()
        let path = directory + "/goald.sqlite"
        let match = MatchID()
        let (ada, bea) = (PlayerID(), PlayerID())
        let (aliceInstance, bobInstance) = (ClientInstanceID.random(), ClientInstanceID.random())
        do {
            let daemon = try await TestDaemon.start(storage: try SQLiteLeagueStorage(path: path))
            let alice = try await TestSession.open(daemon, token: daemon.tokens.editor, instance: aliceInstance)
            #expect(alice.welcome.history, "the welcome offers history")
            _ = try await alice.commit(seq: 1, base: 0, Make.createPlayer("Ada", id: ada))
            _ = try await alice.commit(seq: 2, base: 1, Make.createPlayer("Bea", id: bea))
            _ = try await alice.commit(seq: 3, base: 2, Make.createMatch(id: match, home: [ada], away: [bea]))
            let bob = try await TestSession.open(daemon, token: daemon.tokens.editor2, instance: bobInstance, since: 3)
            _ = try await bob.commit(seq: 1, base: 3, .adjustGoals(id: match, side: .home, delta: 2))
            let admin = try await TestSession.open(daemon, token: daemon.tokens.admin, stream: .acks)
            _ = try await admin.commit(seq: 1, base: 4, .updateMatch(id: match, MatchUpdate(homeGoals: 3)))
            try await daemon.stop().get()
        }
        let daemon = try await TestDaemon.start(storage: try SQLiteLeagueStorage(path: path))
        let vera = try await TestSession.open(daemon, token: daemon.tokens.viewer, stream: .acks)

        let first = try await vera.page(HistoryRequest(entity: .match(match), limit: 2))
        #expect(first.entries.map(\.revision) == [5, 4])
        #expect(first.entries.map(\.author) == ["admin", "bob"])
        #expect(first.entries[1].clientInstance == bobInstance)
        #expect(first.entries[1].action == .adjustGoals(id: match, side: .home, delta: 2))
        #expect(first.entries[0].fields == [FieldChange(field: .homeGoals, before: .goals(2), after: .goals(3))])
        #expect(first.entries[1].fields == [FieldChange(field: .homeGoals, before: .goals(0), after: .goals(2))])
        #expect(first.nextBefore == 4 && first.retainedFrom == 1 && !first.pruned)

        let second = try await vera.page(HistoryRequest(entity: .match(match), before: first.nextBefore, limit: 2))
        #expect(second.entries.map(\.revision) == [3])
        #expect(second.entries.first?.change == .created && second.entries.first?.author == "alice")
        #expect(second.entries.first?.clientInstance == aliceInstance)
        #expect(second.nextBefore == nil && !second.pruned)

        let adas = try await vera.page(HistoryRequest(entity: .player(ada)))
        #expect(adas.entries.map(\.revision) == [1], "rating changes are not the player's history")
        #expect(adas.entries.first?.fields == [FieldChange(field: .name, before: nil, after: .name("Ada"))])
        await daemon.stop()
    }

    @Test("unknown entities and bad numbers are refused and the session goes on")
    func refusals() async throws {
        try await withTestDaemon { daemon in
            let vera = try await TestSession.open(daemon, token: daemon.tokens.viewer)
            for (request, code) in [
                (HistoryRequest(entity: .player(PlayerID())), HistoryRefusal.unknownEntity),
                (HistoryRequest(entity: .match(MatchID()), limit: 0), .badHistoryRequest),
                (HistoryRequest(entity: .match(MatchID()), limit: 101), .badHistoryRequest),
                (HistoryRequest(entity: .match(MatchID()), before: 0), .badHistoryRequest),
            ] {
                let answer = try await vera.historyAnswer(request)
                guard case .refused(let refused, let message) = answer.result else {
                    Issue.record("\(request) got \(answer)")
                    continue
                }
                #expect(refused == code, "\(message)")
                #expect(answer.entity == request.entity)
            }
        }
    }

    @Test("a second request while the first is being read is refused busy; the first is answered, the session goes on")
    func oneOutstandingRequest() async throws {
        let storage = GatedStorage(wrapping: InMemoryLeagueStorage())
        try await withTestDaemon(storage: storage) { daemon in
            let alice = try await TestSession.open(daemon, token: daemon.tokens.editor, stream: .acks)
            let ada = PlayerID()
            _ = try await alice.commit(seq: 1, base: 0, Make.createPlayer("Ada", id: ada))
            storage.close(.history)
            try await alice.client.send(text: ClientMessage.history(HistoryRequest(entity: .player(ada))).encoded())
            await storage.waitUntilHeld(.history)
            let second = try await alice.historyAnswer(HistoryRequest(entity: .player(ada)))
            guard case .refused(.busy, _) = second.result else {
                Issue.record("the second request got \(second)")
                storage.open(.history)
                return
            }
            storage.open(.history)
            let first = try await alice.next()
            guard case .history(let answer) = first, case .page(let page) = answer.result else {
                Issue.record("the first request got \(first)")
                return
            }
            #expect(page.entries.map(\.revision) == [1])
            #expect(try await alice.page(HistoryRequest(entity: .player(ada))).entries.count == 1)
        }
    }

    @Test("an answer is not held while the session catches up: it arrives while the backlog read is still held")
    func answeredDuringCatchUp() async throws {
        let storage = GatedStorage(wrapping: InMemoryLeagueStorage())
        try await withTestDaemon(storage: storage) { daemon in
            let alice = try await TestSession.open(daemon, token: daemon.tokens.editor, stream: .acks)
            let (ada, bea) = (PlayerID(), PlayerID())
            _ = try await alice.commit(seq: 1, base: 0, Make.createPlayer("Ada", id: ada))
            _ = try await alice.commit(seq: 2, base: 1, Make.createPlayer("Bea", id: bea))
            // The resuming session is welcomed at head 2, then its first backlog page read is held.
            storage.close(.backlog)
            defer { storage.open(.backlog) }  // a failing test must not leave the daemon's thread held
            let vera = try await TestSession.open(daemon, token: daemon.tokens.viewer, since: 0, digest: .genesis)
            #expect(vera.welcome.mode == .backlog)
            await storage.waitUntilHeld(.backlog)
            let page = try await vera.page(HistoryRequest(entity: .player(bea)))
            #expect(page.entries.map(\.revision) == [2])
            storage.open(.backlog)
            let rest = try await vera.collect { if case .caughtUp = $0 { true } else { false } }
            #expect(rest.compactMap(\.changesetRevision) == [1, 2])
        }
    }

    @Test("past retention: the page holds what the log keeps, says where it starts, and that older history went")
    func pastRetention() async throws {
        let storage = InMemoryLeagueStorage(retention: RetentionPolicy(maximumChangesets: 2, chunkSize: 1))
        try await withTestDaemon(storage: storage) { daemon in
            let alice = try await TestSession.open(daemon, token: daemon.tokens.editor, stream: .acks)
            let (ada, bea, match) = (PlayerID(), PlayerID(), MatchID())
            _ = try await alice.commit(seq: 1, base: 0, Make.createPlayer("Ada", id: ada))
            _ = try await alice.commit(seq: 2, base: 1, Make.createPlayer("Bea", id: bea))
            _ = try await alice.commit(seq: 3, base: 2, Make.createMatch(id: match, home: [ada], away: [bea]))
            for seq in UInt64(4)...6 {
                _ = try await alice.commit(seq: seq, base: seq - 1, .adjustGoals(id: match, side: .away, delta: 1))
            }
            let report = try storage.prune(now: Timestamp(millisecondsSince1970: 0))
            #expect(report.oldestRetainedRevision == 5)
            let page = try await alice.page(HistoryRequest(entity: .match(match)))
            #expect(page.entries.map(\.revision) == [6, 5])
            #expect(page.retainedFrom == 5 && page.pruned && page.nextBefore == nil)
            #expect(page.entries[0].fields == [FieldChange(field: .awayGoals, before: .goals(2), after: .goals(3))])
            #expect(page.entries[1].fields == [FieldChange(field: .awayGoals, before: nil, after: .goals(2))])
            let beas = try await alice.page(HistoryRequest(entity: .player(bea)))
            #expect(beas.entries.isEmpty && beas.pruned, "Bea exists; her history was pruned")
        }
    }
}

extension TestSession {
    /// Sends `history` and reads until its answer (skipping changesets and other messages).
    func historyAnswer(_ request: HistoryRequest) async throws -> HistoryAnswer {
        try await client.send(text: ClientMessage.history(request).encoded())
        let messages = try await collect { if case .history = $0 { true } else { $0.errorCode != nil } }
        guard case .history(let answer) = messages.last else {
            throw TestSessionError.closed(code: nil, reason: "no history answer: \(String(describing: messages.last))")
        }
        return answer
    }

    /// `historyAnswer`, which must be a page.
    func page(_ request: HistoryRequest) async throws -> HistoryPageMessage {
        let answer = try await historyAnswer(request)
        guard case .page(let page) = answer.result else {
            throw TestSessionError.closed(code: nil, reason: "history refused: \(answer)")
        }
        return page
    }
}
