import GoalModel
import GoalPostgres
import GoalServer
import GoalStore
import GoalTestSlots
import GoalTestSupport
import GoalWire
import Testing

/// Several goald nodes on one PostgreSQL database are one league (issue 15 points 2 and 3): one order of
/// revisions, the same conflict outcomes as one node, exactly once across nodes, every node's sessions fed with
/// every node's commits, and a node that lags never making that the client's problem.
@Suite(
    "goald nodes sharing one PostgreSQL database",
    .enabled(if: PostgresTestServer.isEnabled, Comment(rawValue: PostgresTestServer.skipMessage)),
    .slotted
)
struct MultiNodeTests {
    @Test("writers and subscribers on three nodes: every subscriber sees the same changesets, gap-free, to one head")
    func threeNodesConverge() async throws {
        try await withNodes(3) { nodes in
            let subscribers = try await nodes.asyncMap { try await TestSession.open($0, token: $0.tokens.viewer) }
            let leanSubscribers = try await nodes.asyncMap {
                try await TestSession.open($0, token: $0.tokens.viewer, protocolVersion: 2)
            }
            let setup = try await TestSession.open(nodes[0], token: nodes[0].tokens.admin, stream: .acks)
            let (home, away, match) = (PlayerID(), PlayerID(), MatchID())
            _ = try await setup.commit(seq: 1, base: 0, Make.createPlayer("Ada", id: home))
            _ = try await setup.commit(seq: 2, base: 0, Make.createPlayer("Bea", id: away))
            _ = try await setup.commit(seq: 3, base: 0, Make.createMatch(id: match, home: [home], away: [away]))

            let rounds = 10
            let acked = try await withThrowingTaskGroup(of: [Revision].self) { group in
                for (index, node) in nodes.enumerated() {
                    for writer in 0..<2 {
                        group.addTask {
                            let session = try await TestSession.open(node, token: node.tokens.editor, stream: .acks)
                            var revisions: [Revision] = []
                            for round in 0..<rounds {
                                let name = "n\(index)w\(writer)r\(round)"
                                for (seq, action) in [
                                    (UInt64(2 * round + 1), Make.createPlayer(name)),
                                    (UInt64(2 * round + 2), .adjustGoals(id: match, side: .home, delta: 1)),
                                ] {
                                    let answer = try await session.commit(seq: seq, base: 3, action).last
                                    guard case .ack(_, let revision, false) = answer else {
                                        throw MultiNodeTestError.unexpected(answer)
                                    }
                                    revisions.append(revision)
                                }
                            }
                            return revisions
                        }
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            let head = Revision(3 + 3 * 2 * rounds * 2)
            #expect(Set(acked) == Set((4...head).map { $0 }), "every ack names its own revision, none twice")

            var streams: [[Changeset]] = []
            for subscriber in subscribers {
                let seen = try await subscriber.collect { $0.changesetRevision == head }
                streams.append(seen.compactMap { if case .changeset(let c) = $0 { c } else { nil } })
            }
            for stream in streams {
                #expect(stream.map(\.revision) == Array(1...head), "gap-free, in order, each once")
                #expect(stream == streams[0], "the same changesets (and digests) on every node")
            }
            // Protocol 2 on every node: the same deltas (the same bytes), each expanding to the full changeset.
            var leanStreams: [[ServerMessage]] = []
            for subscriber in leanSubscribers {
                let seen = try await subscriber.collect { message in
                    if case .delta(let delta) = message { return delta.revision == head }
                    return message.changesetRevision == head
                }
                leanStreams.append(seen.filter { if case .delta = $0 { true } else { $0.changesetRevision != nil } })
            }
            for stream in leanStreams {
                #expect(stream == leanStreams[0], "the same frames on every node")
                var league = LeagueState()
                for (message, full) in zip(stream, streams[0]) {
                    switch message {
                    case .delta(let delta): #expect(try delta.expand(in: league) == full)
                    case .changeset(let changeset): #expect(changeset == full)
                    default: Issue.record("not a changeset: \(message)")
                    }
                    try league.apply(full)
                }
                #expect(stream.count == Int(head))
                #expect(stream.contains { if case .delta = $0 { true } else { false } })
            }
            let last = streams[0].last { $0.changes.contains { if case .matchUpserted = $0 { true } else { false } } }
            let goals = last?.changes.compactMap { if case .matchUpserted(let m) = $0 { m.homeGoals } else { nil } }
            #expect(goals == [3 * 2 * rounds], "every increment from every node counts")
        }
    }

    @Test("conflicting edits sent at once to three nodes: one wins, the others get conflict and name_taken")
    func conflictsAcrossNodes() async throws {
        try await withNodes(3) { nodes in
            let setup = try await TestSession.open(nodes[0], token: nodes[0].tokens.admin, stream: .acks)
            let (home, away, match) = (PlayerID(), PlayerID(), MatchID())
            _ = try await setup.commit(seq: 1, base: 0, Make.createPlayer("Ada", id: home))
            _ = try await setup.commit(seq: 2, base: 0, Make.createPlayer("Bea", id: away))
            _ = try await setup.commit(seq: 3, base: 0, Make.createMatch(id: match, home: [home], away: [away]))
            let editors = try await nodes.asyncMap {
                try await TestSession.open($0, token: $0.tokens.editor, stream: .acks)
            }
            let answers = try await withThrowingTaskGroup(of: [ServerMessage].self) { group in
                for (index, editor) in editors.enumerated() {
                    group.addTask {
                        let score = MatchUpdate(homeGoals: index + 1)
                        try await editor.send(editor.mutation(seq: 1, base: 3, .updateMatch(id: match, score)))
                        try await editor.send(editor.mutation(seq: 2, base: 3, Make.createPlayer("Zed")))
                        let first = try await editor.collect { $0.isAck(seq: 1) || $0.isRejected(seq: 1) }
                        let second = try await editor.collect { $0.isAck(seq: 2) || $0.isRejected(seq: 2) }
                        return [first.last!, second.last!]
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            let updates = answers.filter { $0.isAck(seq: 1) || $0.isRejected(seq: 1) }
            let creates = answers.filter { $0.isAck(seq: 2) || $0.isRejected(seq: 2) }
            #expect(updates.filter(\.isAck).count == 1, "\(updates)")
            #expect(updates.compactMap(\.rejectionCode) == [.conflict, .conflict], "\(updates)")
            #expect(creates.filter(\.isAck).count == 1, "\(creates)")
            #expect(creates.compactMap(\.rejectionCode) == [.nameTaken, .nameTaken], "\(creates)")
            #expect(Set(answers.compactMap(\.ackRevision)) == [4, 5], "two commits, one order")
        }
    }

    @Test("a mutation retried on a node that has not seen its first answer gets that answer, applied once")
    func exactlyOnceAcrossNodes() async throws {
        try await withNodes(2, lagging: [1]) { nodes in
            let instance = ClientInstanceID.random()
            let first = try await TestSession.open(nodes[0], token: nodes[0].tokens.editor, instance: instance)
            let (ann, twin) = (PlayerID(), PlayerID())
            let acked = try await first.commit(seq: 1, base: 0, Make.createPlayer("Ann", id: ann)).last
            let refused = try await first.commit(seq: 2, base: 0, Make.createPlayer("ann", id: twin)).last
            #expect(acked == .ack(seq: 1, revision: 1, noop: false))
            #expect(refused?.rejectionCode == .nameTaken)
            try await first.client.close(code: 1000)

            // Node 1 has not read the store since it started: it decides both as new, finds the store moved when it
            // writes, reads what node 0 wrote (the client's record among it) and decides them again.
            let retry = try await TestSession.open(
                nodes[1],
                token: nodes[1].tokens.editor,
                instance: instance,
                stream: .acks
            )
            #expect(try await retry.commit(seq: 1, base: 0, Make.createPlayer("Ann", id: ann)).last == acked)
            #expect(try await retry.commit(seq: 2, base: 0, Make.createPlayer("ann", id: twin)).last == refused)
            let watcher = try await TestSession.open(nodes[1], token: nodes[1].tokens.viewer, since: 0)
            let seen = try await watcher.collect { if case .caughtUp = $0 { true } else { false } }
            #expect(seen.compactMap(\.changesetRevision) == [1], "one commit, not two")
            #expect(nodes[1].metric("goald_rebased_batches_total") >= 1)
        }
    }

    @Test("a client resuming on a node that lags is served a backlog, not a snapshot; its base is not ahead there")
    func laggingNodeServesResume() async throws {
        try await withNodes(2, lagging: [1]) { nodes in
            let early = try await TestSession.open(nodes[1], token: nodes[1].tokens.viewer)
            let editor = try await TestSession.open(nodes[0], token: nodes[0].tokens.editor)
            var onA: [ServerMessage] = []
            for seq in UInt64(1)...3 {
                onA += try await editor.commit(seq: seq, base: 0, Make.createPlayer("P\(seq)"))
            }
            let last = onA.last { $0.changesetRevision == 3 }
            guard case .changeset(let third) = last else { throw MultiNodeTestError.unexpected(last) }

            let resumed = try await TestSession.open(
                nodes[1],
                token: nodes[1].tokens.editor,
                instance: editor.instance,
                since: 2,
                epoch: editor.welcome.epoch,
                digest: nil
            )
            #expect(resumed.welcome.mode == .backlog, "node 1 caught up before it answered")
            #expect(resumed.welcome.head == 3 && resumed.welcome.headDigest == third.digest)
            let backlog = try await resumed.collect { if case .caughtUp = $0 { true } else { false } }
            #expect(backlog.compactMap(\.changesetRevision) == [3])

            let fourth = try await TestSession.open(nodes[0], token: nodes[0].tokens.admin, stream: .acks)
            _ = try await fourth.commit(seq: 1, base: 3, Make.createPlayer("P4"))
            let answer = try await resumed.commit(seq: 4, base: 4, Make.createPlayer("P5")).last
            #expect(answer == .ack(seq: 4, revision: 5, noop: false), "base 4 is in the store: not base_ahead")

            let live = try await early.collect { $0.changesetRevision == 5 }
            #expect(live.compactMap(\.changesetRevision) == [1, 2, 3, 4, 5], "its earlier subscriber got them all")
        }
    }

    @Test("a node with no writers of its own publishes the others' commits (notification or head check)")
    func idleNodeFollows() async throws {
        try await withNodes(2) { nodes in
            let watcher = try await TestSession.open(nodes[1], token: nodes[1].tokens.viewer)
            let editor = try await TestSession.open(nodes[0], token: nodes[0].tokens.editor, stream: .acks)
            _ = try await editor.commit(seq: 1, base: 0, Make.createPlayer("Ada"))
            let seen = try await watcher.collect { $0.changesetRevision == 1 }
            #expect(seen.compactMap(\.changesetRevision) == [1])
            try await nodes[1].waitForMetric("goald_foreign_commits_total", atLeast: 1)
        }
    }

    @Test("an idle node takes the others' batches from their notifications: their commits without reading the store")
    func notifiedBatchesNeedNoRead() async throws {
        try await withNodes(2) { nodes in
            let watcher = try await TestSession.open(nodes[1], token: nodes[1].tokens.viewer)
            let editor = try await TestSession.open(nodes[0], token: nodes[0].tokens.editor, stream: .acks)
            _ = try await editor.commit(seq: 1, base: 0, Make.createPlayer("Ada"))
            _ = try await watcher.collect { $0.changesetRevision == 1 }
            let notifiedBefore = nodes[1].metric("goald_notified_batches_total")
            for revision: Revision in 2...6 {
                _ = try await editor.commit(seq: revision, base: revision - 1, Make.createPlayer("P\(revision)"))
                let seen = try await watcher.collect { $0.changesetRevision == revision }
                #expect(seen.compactMap(\.changesetRevision) == [revision])
            }
            // Each commit reaches node 1 while it is idle. Its periodic head check (every 2 s) may read one of them
            // first; the notification is then already taken, so most, not all, arrive by notification.
            let notified = nodes[1].metric("goald_notified_batches_total") - notifiedBefore
            #expect(notified >= 3, "\(notified) of 5 batches taken from their notification")
            #expect(nodes[1].metric("goald_foreign_commits_total") == 6)
        }
    }

    /// Runs `body` with `count` nodes on one fresh database; nodes listed in `lagging` neither listen for nor poll
    /// the others' commits.
    private func withNodes(
        _ count: Int,
        lagging: Set<Int> = [],
        _ body: ([TestDaemon]) async throws -> Void
    ) async throws {
        let database = try PostgresTestServer.makeDatabase()
        defer { try? PostgresTestServer.dropDatabase(database) }  // cleanup only
        var nodes: [TestDaemon] = []
        do {
            for index in 0..<count {
                nodes.append(
                    try await TestDaemon.start(
                        storage: try PostgresLeagueStorage(configuration: database),
                        seams: DaemonSeams(followsOtherNodes: !lagging.contains(index))
                    ) { $0.nodeID = "node-\(index)" }
                )
            }
            try await body(nodes)
        } catch {
            for node in nodes { await node.stop() }
            throw error
        }
        for node in nodes {
            if case .failure(let error) = await node.stop() { throw error }
        }
    }
}

enum MultiNodeTestError: Error {
    case unexpected(ServerMessage?)
}

extension ServerMessage {
    fileprivate var rejectionCode: MutationRejection.Code? {
        if case .rejected(_, let rejection) = self { return rejection.code }
        return nil
    }

    fileprivate var ackRevision: Revision? {
        if case .ack(_, let revision, _) = self { return revision }
        return nil
    }
}

extension Array {
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async throws -> [T] {
        var result: [T] = []
        for element in self { result.append(try await transform(element)) }
        return result
    }
}
