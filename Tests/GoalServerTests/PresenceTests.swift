import GoalModel
@_spi(Testing) import GoalServer
import GoalStore
import GoalTestSlots
@_spi(Testing) import GoalTestSupport
import GoalWire
import NIOWebSocket
import Testing

/// Presence (issue 20 points 1 and 6): joins, updates and leaves reach every session that asked for presence,
/// a new session gets the list right after welcome, a closed or silent session leaves, viewers announce and read,
/// and a flood of announcements is coalesced without touching anyone's changesets.
@Suite("presence: who is here and what they edit", .slotted)
struct PresenceTests {
    @Test("join, edit, view, leave: every presence session sees the others; old sessions are listed but sent nothing")
    func joinEditLeave() async throws {
        try await withTestDaemon { daemon in
            let old = try await TestSession.open(daemon, token: daemon.tokens.editor2)  // no presence in hello
            let ada = try await TestSession.open(daemon, token: daemon.tokens.editor, presence: .all)
            let first = try await ada.next()
            guard case .presenceState(let members) = first else { throw PresenceTestError.unexpected(first) }
            #expect(Set(members.map(\.clientInstance)) == [old.instance, ada.instance])
            #expect(members.allSatisfy { $0.activity == .online && !$0.node.isEmpty && $0.node == members[0].node })

            let viewer = try await TestSession.open(daemon, token: daemon.tokens.viewer, presence: .all)
            guard case .presenceState(let seen) = try await viewer.next() else { throw PresenceTestError.missing }
            #expect(seen.count == 3)
            try await ada.waitFor(.join, instance: viewer.instance)

            let match = MatchID()
            try await ada.announce(.editing(match))
            let update = try await viewer.waitFor(.update, instance: ada.instance)
            #expect(update.activity == .editing(match))
            #expect(update.name == "alice", "the token's name")

            try await viewer.announce(.viewing(match))  // viewers may announce
            let viewing = try await ada.waitFor(.update, instance: viewer.instance)
            #expect(viewing.activity == .viewing(match))

            try await ada.client.close(code: 1000)
            let left = try await viewer.waitFor(.leave, instance: ada.instance)
            #expect(left.activity == .editing(match), "a leave carries the member as last known")

            try await old.client.close(code: 1000)
            try await viewer.waitFor(.leave, instance: old.instance)
        }
    }

    @Test("a session that goes silent (dropped TCP, kill -9) leaves when its heartbeat timeout fires")
    func silentSessionLeaves() async throws {
        // Short enough for a quick test, long enough that the watcher's pongs, answered by a test process on a
        // loaded 2-core machine (CI), keep it alive: 5 s was not (the watcher itself was closed mid-run).
        let limits = ServerLimits(idleTimeoutMilliseconds: 15_000, pingIntervalMilliseconds: 1_000)
        try await withTestDaemon(limits: limits) { daemon in
            let watcher = try await TestSession.open(daemon, token: daemon.tokens.viewer, presence: .all)
            _ = try await watcher.next()  // presence_state
            let silent = try await TestSession.open(daemon, token: daemon.tokens.editor, presence: .all)
            try await watcher.waitFor(.join, instance: silent.instance)
            try await silent.client.pauseReading()  // reads and answers nothing from now on, as a dead peer
            // The watcher answers pings (its reads go on), so only the silent one times out.
            try await watcher.waitFor(.leave, instance: silent.instance, answeringPings: true)
        }
    }

    // That the flood leaves others' changeset latency the same is a timing, so it is a benchmark, not this test:
    // Benchmarks/presence-flood.py, figures in docs/BENCHMARKS.md.
    @Test("a flood of announcements is coalesced (latest wins); another session still gets every changeset, in order")
    func floodIsCoalesced() async throws {
        var limits = ServerLimits()
        limits.presence = PresenceConfiguration(announcementsPerSecond: 0.5, announcementBurst: 3)
        try await withTestDaemon(limits: limits) { daemon in
            let observer = try await TestSession.open(daemon, token: daemon.tokens.viewer, presence: .all)
            _ = try await observer.next()  // presence_state
            let flooder = try await TestSession.open(daemon, token: daemon.tokens.editor2, presence: .all)
            let writer = try await TestSession.open(daemon, token: daemon.tokens.editor, stream: .acks)
            let matches = (0..<300).map { _ in MatchID() }
            let writes = 30
            // The observer reads (answering pings) while the others write: a loaded machine can make the flood
            // outlast a heartbeat timeout, and a reader that only starts afterwards would be taken for a dead peer.
            let watching = Task {
                var revisions: [Revision] = []
                var updates: [PresenceActivity] = []
                while revisions.count < writes || updates.last != .editing(matches.last!) {
                    switch try await observer.nextAnsweringPings() {
                    case .changeset(let changeset): revisions.append(changeset.revision)
                    case .presence(let event) where event.member.clientInstance == flooder.instance:
                        if event.kind != .leave { updates.append(event.member.activity) }
                    default: break
                    }
                }
                return (revisions, updates)
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for match in matches { try await flooder.announce(.editing(match)) }
                }
                group.addTask {
                    for seq in 1...UInt64(writes) {
                        _ = try await writer.commit(seq: seq, base: 0, Make.createPlayer("p\(seq)"))
                    }
                }
                try await group.waitForAll()
            }
            // The flooder's session is still open: a few hundred extras never close it.
            try await flooder.client.send(frame: .ping, payload: [7])
            while true {
                let received = try await flooder.client.next(timeout: .seconds(60))
                if case .pong = received { break }
                if case .closed(let code, let reason) = received {
                    Issue.record("the flooder was closed: \(code.map(String.init) ?? "-") \(reason)")
                    break
                }
            }
            // The observer gets every changeset, in order, and at most a few of the 300 announcements; the last
            // announcement is the state it ends with.
            let (revisions, updates) = try await watching.value
            #expect(revisions == Array(1...Revision(writes)))
            #expect(updates.count < matches.count / 4, "announcements past the bucket are coalesced")
            #expect(updates.last == .editing(matches.last!), "the latest announcement wins")
            #expect(daemon.metric("goald_presence_coalesced_total") > 0)
        }
    }
}

enum PresenceTestError: Error {
    case unexpected(ServerMessage)
    case missing
}

extension TestSession {
    /// The next server message; pings are answered meanwhile, so a session that only listens is not taken for a
    /// dead peer however long a loaded machine makes the test.
    func nextAnsweringPings(within limit: Duration = .seconds(120)) async throws -> ServerMessage {
        let deadline = ContinuousClock.now + limit
        while true {
            // The server's pings (every 15 s) would otherwise keep a wait for a message that never comes alive.
            let left = deadline - ContinuousClock.now
            guard left > .zero else { throw PresenceTestError.missing }
            switch try await client.next(timeout: min(left, .seconds(60))) {
            case .text(let bytes): return try ServerMessage.decode(bytes)
            case .ping(let payload): try await client.send(frame: .pong, payload: payload)
            case .closed(let code, let reason): throw TestSessionError.closed(code: code, reason: reason)
            case .pong, .binary, .compressed: continue
            }
        }
    }

    /// Reads until a presence event of `kind` for the session `instance` arrives; returns its member.
    @discardableResult
    func waitFor(
        _ kind: PresenceEvent.Kind,
        instance: ClientInstanceID,
        answeringPings: Bool = true,
        within limit: Duration = .seconds(120)
    ) async throws -> PresenceMember {
        let deadline = ContinuousClock.now + limit
        while true {
            // A bound on the whole wait, not only on each read: pings and other members' events keep arriving, so
            // an event that never comes would otherwise be waited for forever (a full run once hung here).
            let left = deadline - ContinuousClock.now
            guard left > .zero else { throw PresenceTestError.missing }
            let received = try await client.next(timeout: min(left, .seconds(30)))
            switch received {
            case .text(let bytes):
                if case .presence(let event) = try ServerMessage.decode(bytes), event.kind == kind,
                    event.member.clientInstance == instance
                {
                    return event.member
                }
            case .ping(let payload):
                if answeringPings { try await client.send(frame: .pong, payload: payload) }
            case .closed(let code, let reason):
                throw TestSessionError.closed(code: code, reason: reason)
            case .pong, .binary, .compressed:
                continue
            }
        }
    }
}
