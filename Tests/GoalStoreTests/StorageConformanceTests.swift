import Foundation
import GoalModel
import GoalStore
import GoalTestSlots
import Testing

/// One suite, run against both stores: they must be indistinguishable to the daemon.
@Suite("LeagueStorage conformance", .slotted)
struct StorageConformanceTests {
    @Test(
        "append and recover round trip: players, matches with stamps and order, client records",
        arguments: StorageKind.allCases
    )
    func roundTrip(kind: StorageKind) throws {
        let harness = try StoreHarness(kind)
        let ids = Ids()
        var driver = LeagueDriver()
        driver.seedFourPlayersAndMatch(ids, home: [ids.carol, ids.alice], away: [ids.dave, ids.bob], homeGoals: 1)
        try harness.storage.append(driver.takeBatch())

        driver.mutate(.adjustGoals(id: ids.match, side: .home, delta: 2), by: .beta)
        driver.mutate(.renamePlayer(id: ids.alice, name: "Alicia"), by: .alpha)
        let taken = driver.mutate(.renamePlayer(id: ids.bob, name: "ALICIA"), by: .beta)
        #expect(taken.outcome.rejectionCode == .nameTaken)
        let noop = driver.mutate(.renamePlayer(id: ids.bob, name: "bob"), by: .beta)
        #expect(noop == .noop(7))
        try harness.storage.append(driver.takeBatch())

        // A batch with a rejection only: client records and no commit.
        let conflict = driver.mutate(.updateMatch(id: ids.match, MatchUpdate(homeGoals: 9)), by: .alpha, base: 5)
        #expect(conflict.outcome.rejectionCode == .conflict)
        let rejectionOnly = driver.takeBatch()
        #expect(rejectionOnly.commits.isEmpty && rejectionOnly.clientRecords.count == 1)
        try harness.storage.append(rejectionOnly)

        for _ in 0..<2 {
            let league = try harness.storage.recover()
            #expect(league.state == driver.state)
            #expect(league.head == 7)
            #expect(league.headDigest == driver.digest)
            #expect(league.oldestRetainedRevision == 1)
            let match = try #require(league.state.match(ids.match))
            #expect(match.homePlayers == [ids.carol, ids.alice])
            #expect(match.awayPlayers == [ids.dave, ids.bob])
            #expect(match.stamps.homeGoals == FieldStamp(revision: 6, writer: .beta))
            #expect(match.stamps.awayGoals == FieldStamp(revision: 5, writer: .alpha))
            #expect(league.state.player(ids.alice)?.nameStamp == FieldStamp(revision: 7, writer: .alpha))
            let alpha = try #require(league.state.clientRecord(for: .alpha))
            #expect(alpha.results.last?.outcome.rejectionCode == .conflict)
            #expect(alpha.results.last?.outcome.rejection?.current == .match(match))
            #expect(
                league.state.clientRecord(for: .beta)?.results.map(\.outcome) == [
                    .committed(6), taken.outcome, .noop(7),
                ]
            )
            try harness.reopen()
        }
    }

    @Test("a revision gap is refused and nothing of the batch is written", arguments: StorageKind.allCases)
    func contiguityEnforced(kind: StorageKind) throws {
        let harness = try StoreHarness(kind)
        var driver = LeagueDriver()
        for index in 1...3 { driver.mutate(.createPlayer(id: PlayerID(), name: "p\(index)"), by: .alpha) }
        try harness.storage.append(driver.takeBatch())
        let before = try harness.storage.recover()

        for index in 4...7 { driver.mutate(.createPlayer(id: PlayerID(), name: "p\(index)"), by: .beta) }
        let batch = driver.takeBatch()
        let first = StorageBatch(commits: [batch.commits[0]], clientRecords: [])
        try harness.storage.append(first)
        let afterFirst = try harness.storage.recover()
        #expect(afterFirst.head == 4 && before.head == 3)

        let skipsNext = StorageBatch(commits: [batch.commits[2], batch.commits[3]], clientRecords: batch.clientRecords)
        let holeInside = StorageBatch(
            commits: [batch.commits[1], batch.commits[3]],
            clientRecords: batch.clientRecords
        )
        let replay = StorageBatch(commits: [batch.commits[0]], clientRecords: batch.clientRecords)
        for bad in [skipsNext, holeInside, replay] {
            let error = try #require(throws: StorageError.self) { try harness.storage.append(bad) }
            #expect(error.code == .revisionGap)
            #expect(try harness.storage.recover() == afterFirst)
            #expect(try harness.storage.logBounds().head == 4)
        }
        #expect(try harness.storage.recover().state.clientRecord(for: .beta) == nil)

        try harness.storage.append(
            StorageBatch(commits: Array(batch.commits[1...]), clientRecords: batch.clientRecords)
        )
        #expect(try harness.storage.recover().state == driver.state)
    }

    @Test("backlog pages are exact, ordered and bounded by (after, upTo]", arguments: StorageKind.allCases)
    func backlogPaging(kind: StorageKind) throws {
        let harness = try StoreHarness(kind)
        var driver = LeagueDriver()
        for index in 1...25 {
            driver.mutate(.createPlayer(id: PlayerID(), name: "player \(index)"), by: .alpha)
            if index % 10 == 0 { try harness.storage.append(driver.takeBatch()) }
        }
        try harness.storage.append(driver.takeBatch())

        var after: Revision = 0
        var pages: [[LogFrame]] = []
        while true {
            let page = try harness.storage.backlog(after: after, upTo: 25, limit: 7)
            guard let last = page.last else { break }
            pages.append(page)
            after = last.revision
        }
        #expect(pages.map(\.count) == [7, 7, 7, 4])
        let frames = pages.flatMap { $0 }
        #expect(frames.map(\.revision) == Array(1...25))
        #expect(frames.allSatisfy { $0.bytes == driver.frames[$0.revision] })

        #expect(try harness.storage.backlog(after: 5, upTo: 9, limit: 100).map(\.revision) == [6, 7, 8, 9])
        #expect(try harness.storage.backlog(after: 9, upTo: 9, limit: 100).isEmpty)
        #expect(
            try harness.storage.backlog(after: 20, upTo: 1_000, limit: 100).map(\.revision) == [21, 22, 23, 24, 25]
        )
        #expect(try harness.storage.backlog(after: 25, upTo: 30, limit: 100).isEmpty)
        #expect(try harness.storage.backlog(after: 0, upTo: 25, limit: 0).isEmpty)
    }

    @Test("tokens: create, list, look up by hash, revoke; names unique", arguments: StorageKind.allCases)
    func tokens(kind: StorageKind) throws {
        let harness = try StoreHarness(kind)
        let store = harness.storage
        let admin = StoredToken(
            name: "admin",
            role: .admin,
            secretHash: testHash(1),
            created: Timestamp(millisecondsSince1970: 10)
        )
        let viewer = StoredToken(
            name: "wall",
            role: .viewer,
            secretHash: testHash(2),
            created: Timestamp(millisecondsSince1970: 20)
        )
        try store.createToken(viewer)
        try store.createToken(admin)
        #expect(try store.tokens() == [admin, viewer])

        let sameName = StoredToken(
            name: "admin",
            role: .viewer,
            secretHash: testHash(3),
            created: Timestamp(millisecondsSince1970: 30)
        )
        #expect(try #require(throws: StorageError.self) { try store.createToken(sameName) }.code == .tokenNameTaken)
        let sameHash = StoredToken(
            name: "other",
            role: .viewer,
            secretHash: testHash(1),
            created: Timestamp(millisecondsSince1970: 30)
        )
        #expect(try #require(throws: StorageError.self) { try store.createToken(sameHash) }.code == .tokenHashTaken)
        let shortHash = StoredToken(
            name: "short",
            role: .viewer,
            secretHash: [1, 2, 3],
            created: Timestamp(millisecondsSince1970: 30)
        )
        #expect(try #require(throws: StorageError.self) { try store.createToken(shortHash) }.code == .invalidTokenHash)

        #expect(try store.token(secretHash: testHash(2)) == viewer)
        #expect(try store.token(secretHash: testHash(9)) == nil)

        let revoked = try store.revokeToken(named: "wall", at: Timestamp(millisecondsSince1970: 99))
        #expect(revoked.revoked == Timestamp(millisecondsSince1970: 99) && revoked.id == viewer.id)
        #expect(
            try store.revokeToken(named: "wall", at: Timestamp(millisecondsSince1970: 500)).revoked?
                .millisecondsSince1970 == 99
        )
        #expect(
            try #require(throws: StorageError.self) { try store.revokeToken(named: "nobody", at: revoked.created) }.code
                == .tokenNotFound
        )

        try harness.reopen()
        #expect(try harness.storage.token(secretHash: testHash(2))?.isRevoked == true)
        #expect(try harness.storage.tokens().map(\.name) == ["admin", "wall"])
    }

    @Test("the epoch is stable across reopen and changed by rotate", arguments: StorageKind.allCases)
    func epoch(kind: StorageKind) throws {
        let harness = try StoreHarness(kind)
        let first = try harness.storage.epoch()
        #expect(!first.rawValue.isEmpty)
        try harness.reopen()
        #expect(try harness.storage.epoch() == first)
        #expect(try harness.storage.recover().epoch == first)
        let rotated = try harness.storage.rotateEpoch()
        #expect(rotated != first)
        try harness.reopen()
        #expect(try harness.storage.epoch() == rotated)
    }

    @Test("a batch that breaks name-key uniqueness is refused whole", arguments: StorageKind.allCases)
    func constraintRefusedWhole(kind: StorageKind) throws {
        let harness = try StoreHarness(kind)
        let stamp1 = FieldStamp(revision: 1, writer: .alpha)
        let stamp2 = FieldStamp(revision: 2, writer: .alpha)
        let first = Player(id: PlayerID(), name: "Zoë", nameKey: "zoë", created: stamp1, nameStamp: stamp1)
        let clash = Player(id: PlayerID(), name: "ZOË", nameKey: "zoë", created: stamp2, nameStamp: stamp2)
        func commit(_ revision: Revision, _ player: Player) -> LoggedCommit {
            let changeset = Changeset(
                revision: revision,
                mutationID: nil,
                author: "t",
                time: LeagueDriver.time(of: revision),
                action: nil,
                changes: [.playerUpserted(player)],
                digest: .genesis
            )
            return LoggedCommit(changeset: changeset, frame: Array("frame \(revision)".utf8))
        }
        let error = try #require(throws: StorageError.self) {
            try harness.storage.append(StorageBatch(commits: [commit(1, first), commit(2, clash)]))
        }
        #expect(error.code == .constraint)
        #expect(try harness.storage.logBounds().head == 0)
        #expect(try harness.storage.recover().state.allPlayers.isEmpty)
    }

    @Test("calls after close fail and name the call", arguments: StorageKind.allCases)
    func closedStoreFailsLoudly(kind: StorageKind) throws {
        let harness = try StoreHarness(kind)
        try harness.storage.close()
        let error = try #require(throws: StorageError.self) { try harness.storage.recover() }
        #expect(error.code == .closed)
        #expect(error.description.contains("recover()"))
    }
}

extension MutationOutcome {
    var rejection: MutationRejection? {
        if case .rejected(let rejection) = self { return rejection }
        return nil
    }

    var rejectionCode: MutationRejection.Code? { rejection?.code }
}
