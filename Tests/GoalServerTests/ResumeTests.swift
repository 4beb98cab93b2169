import Foundation
import GoalModel
import GoalServer
import GoalStore
import GoalTestSlots
import GoalTestSupport
import GoalTransport
import GoalWire
import Testing

/// A subscriber that keeps its revision and chained digest across sessions and records every changeset revision
/// it receives, to check exactly-once delivery.
struct ResumingSubscriber: Sendable {
    let token: String
    let instance = ClientInstanceID.random()
    private(set) var revision: Revision = 0
    private(set) var digest: Digest = .genesis
    private(set) var received: [Revision] = []
    private(set) var modes: [ServerMessage.SyncMode] = []

    init(token: String) { self.token = token }

    /// Opens a session resuming from where this subscriber is and applies what arrives until `stop` says so.
    mutating func session(_ daemon: TestDaemon) async throws -> TestSession {
        let session = try await TestSession.open(
            daemon,
            token: token,
            instance: instance,
            since: revision,
            digest: digest
        )
        modes.append(session.welcome.mode)
        return session
    }

    /// Applies one message; returns true for `caught_up`.
    @discardableResult
    mutating func apply(_ message: ServerMessage) throws -> Bool {
        switch message {
        case .changeset(let changeset):
            received.append(changeset.revision)
            guard changeset.revision == revision + 1 else {
                throw ResumeFailure.gap(expected: revision + 1, got: changeset.revision)
            }
            guard ChangesetFrame.verify(changeset, previousDigest: digest) else {
                throw ResumeFailure.digest(changeset.revision)
            }
            revision = changeset.revision
            digest = changeset.digest
            return false
        case .caughtUp:
            return true
        default:
            return false
        }
    }

    /// Reads until this subscriber reaches `head`.
    mutating func follow(_ session: TestSession, to head: Revision) async throws {
        while revision < head { try apply(try await session.next(timeout: .seconds(20))) }
    }
}

enum ResumeFailure: Error {
    case gap(expected: Revision, got: Revision)
    case digest(Revision)
}

@Suite("resume: backlog, caught_up, snapshots", .slotted)
struct ResumeTests {
    /// Commits `count` players through one editor session; returns the head.
    @discardableResult
    static func commitPlayers(_ daemon: TestDaemon, count: Int, prefix: String = "P") async throws -> Revision {
        let writer = try await TestSession.open(daemon, token: daemon.tokens.admin, stream: .acks)
        for index in 1...count {
            try await writer.send(writer.mutation(seq: UInt64(index), base: 0, Make.createPlayer("\(prefix)\(index)")))
        }
        let answers = try await writer.collect { $0.isAck(seq: UInt64(count)) }
        #expect(answers.allSatisfy { $0.isAck })
        return try daemon.storage.logBounds().head
    }

    @Test("a resume from 0 with the genesis digest gets the whole log as a backlog, caught_up, then live")
    func backlogThenLive() async throws {
        try await withTestDaemon { daemon in
            let head = try await Self.commitPlayers(daemon, count: 30)
            #expect(head == 30)
            var subscriber = ResumingSubscriber(token: daemon.tokens.viewer)
            let session = try await subscriber.session(daemon)
            #expect(session.welcome.mode == .backlog)
            var caughtUp = false
            while !caughtUp { caughtUp = try subscriber.apply(try await session.next()) }
            #expect(subscriber.received == Array(1...30))
            #expect(subscriber.digest == (try daemon.storage.logBounds()).headDigest)
        }
    }

    @Test("a resume from R without a digest receives exactly (R, H], caught_up{H}, then live changesets")
    func backlogFromMiddle() async throws {
        try await withTestDaemon { daemon in
            try await Self.commitPlayers(daemon, count: 30)
            let session = try await TestSession.open(daemon, token: daemon.tokens.viewer, since: 10, digest: nil)
            #expect(session.welcome.mode == .backlog)
            #expect(session.welcome.head == 30)
            let messages = try await session.collect { if case .caughtUp = $0 { true } else { false } }
            #expect(messages.compactMap(\.changesetRevision) == Array(11...30))
            #expect(messages.last == .caughtUp(head: 30))
            // Live follows.
            let writer = try await TestSession.open(daemon, token: daemon.tokens.editor, stream: .acks)
            _ = try await writer.commit(seq: 1, base: 30, Make.createPlayer("Live"))
            #expect(try await session.next().changesetRevision == 31)
        }
    }

    @Test(
        "snapshot instead of backlog: pruned past since, foreign epoch, since > head, wrong digest, empty replica",
        arguments: ["retention", "epoch", "ahead", "digest", "empty"]
    )
    func snapshotCases(reason: String) async throws {
        let storage = InMemoryLeagueStorage(retention: RetentionPolicy.default.with(maximumChangesets: 10))
        try await withTestDaemon(storage: storage) { daemon in
            try await Self.commitPlayers(daemon, count: 25)
            if reason == "retention" { _ = try storage.prune(now: Timestamp(millisecondsSince1970: Int64.max / 2)) }
            let bounds = try storage.logBounds()
            let session: TestSession
            switch reason {
            case "retention":
                session = try await TestSession.open(daemon, token: daemon.tokens.viewer, since: 3)
            case "epoch":
                session = try await TestSession.open(
                    daemon,
                    token: daemon.tokens.viewer,
                    since: 20,
                    epoch: LeagueEpoch(rawValue: "not-this-epoch")
                )
            case "ahead":
                session = try await TestSession.open(daemon, token: daemon.tokens.viewer, since: 1_000)
            case "digest":
                session = try await TestSession.open(
                    daemon,
                    token: daemon.tokens.viewer,
                    since: 20,
                    digest: Digest(bytes: [UInt8](repeating: 7, count: 32))!
                )
            default:
                session = try await TestSession.open(daemon, token: daemon.tokens.viewer)
            }
            #expect(session.welcome.mode == .snapshot)
            let messages = try await session.collect { if case .snapshotEnd = $0 { true } else { false } }
            guard case .snapshotBegin(let begin) = messages.first,
                case .snapshotEnd(let revision, let digest) = messages.last
            else {
                Issue.record("snapshot framing: \(messages.map(\.type))")
                return
            }
            #expect(begin.revision == 25)
            #expect(begin.players == 25)
            #expect(revision == 25)
            #expect(digest == bounds.headDigest)
            let players = messages.reduce(0) { count, message in
                if case .snapshotChunk(let chunk) = message { count + chunk.players.count } else { count }
            }
            #expect(players == 25)
        }
    }

    @Test(
        "commits that land between a session's registration and its backlog read arrive once, in order, then caught_up"
    )
    func commitsDuringTheBacklogRead() async throws {
        let storage = GatedStorage(wrapping: InMemoryLeagueStorage())
        try await withTestDaemon(storage: storage) { daemon in
            let head = try await Self.commitPlayers(daemon, count: 10)
            // The resuming session registers at head 10, then its first backlog page read is held.
            storage.close(.backlog)
            defer { storage.open(.backlog) }  // a failing test must not leave the daemon's thread held
            let resuming = Task {
                try await TestSession.open(daemon, token: daemon.tokens.viewer, since: 0, digest: .genesis)
            }
            await storage.waitUntilHeld(.backlog)
            let writer = try await TestSession.open(daemon, token: daemon.tokens.editor, stream: .acks)
            for seq in UInt64(1)...5 {
                _ = try await writer.commit(seq: seq, base: head, Make.createPlayer("late\(seq)"))
            }
            storage.open(.backlog)
            let session = try await resuming.value
            #expect(session.welcome.mode == .backlog)
            let messages = try await session.collect { if case .caughtUp = $0 { true } else { false } }
            #expect(messages.compactMap(\.changesetRevision) == Array(1...15))
            #expect(messages.last == .caughtUp(head: 15))
        }
    }

    @Test("resume under load: 5 writers commit while 50 subscribers drop and resume; each sees every revision once")
    func resumeUnderLoad() async throws {
        try await withTestDaemon { daemon in
            let writersDone = ManagedCounter()
            async let writing: Void = withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<5 {
                    group.addTask {
                        let session = try await TestSession.open(daemon, token: daemon.tokens.editor, stream: .acks)
                        for seq in UInt64(1)...60 {
                            _ = try await session.commit(seq: seq, base: 0, Make.createPlayer("w\(writer)-\(seq)"))
                        }
                    }
                }
                try await group.waitForAll()
                writersDone.increment()
            }
            let subscribers = try await withThrowingTaskGroup(of: ResumingSubscriber.self) { group in
                for index in 0..<50 {
                    group.addTask {
                        var subscriber = ResumingSubscriber(token: daemon.tokens.viewer)
                        var round = 0
                        while writersDone.value == 0 {
                            let session = try await subscriber.session(daemon)
                            // Read a few messages, then drop the connection without a close.
                            for _ in 0..<(3 + (index + round) % 7) {
                                guard let message = try? await session.next(timeout: .milliseconds(300)) else { break }
                                try subscriber.apply(message)
                            }
                            await session.client.disconnect()
                            round += 1
                        }
                        return subscriber
                    }
                }
                return try await group.reduce(into: [ResumingSubscriber]()) { $0.append($1) }
            }
            try await writing
            let head = try daemon.storage.logBounds().head
            #expect(head == 300)
            for var subscriber in subscribers {
                let session = try await subscriber.session(daemon)
                try await subscriber.follow(session, to: head)
                #expect(subscriber.received == Array(1...head))
                #expect(!subscriber.modes.contains(.snapshot))
                await session.client.disconnect()
            }
        }
    }
}

/// A counter shared by tasks.
final class ManagedCounter: @unchecked Sendable {
    // Guarded by `lock`: incremented by writer tasks, read by the test's main task.
    private let lock = NSLock()
    private var count = 0

    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}
