import Foundation
import GoalModel
import GoalPostgres
import GoalStore
import GoalTestSupport
import GoalWire

/// The stores the conformance suite runs against: PostgreSQL only when a test server is configured (or required:
/// `PostgresTestServer`); otherwise its cases are left out and a line on stderr says so.
enum StorageKind: String, CaseIterable, CustomStringConvertible, Sendable {
    case memory
    case sqlite
    case postgres

    static var allCases: [StorageKind] {
        guard PostgresTestServer.isEnabled else {
            reportSkip
            return [.memory, .sqlite]
        }
        return [.memory, .sqlite, .postgres]
    }

    /// Said once per process, when the suite's arguments are first listed.
    private static let reportSkip: Void = {
        FileHandle.standardError.write(Data("⚠︎ \(PostgresTestServer.skipMessage)\n".utf8))
    }()

    var description: String { rawValue }
}

/// A store under test plus what "restart" means for it: the SQLite and PostgreSQL stores close and reopen their
/// database; the in-memory store keeps its object (its contents live as long as the process).
final class StoreHarness {
    let kind: StorageKind
    let directory: URL
    let retention: RetentionPolicy
    private(set) var storage: any LeagueStorage
    /// The test's own PostgreSQL database (dropped with the harness).
    private let postgres: PostgresStoreConfiguration?

    /// The PostgreSQL database of a `.postgres` harness, for a second store on it.
    var postgresDatabase: PostgresStoreConfiguration? { postgres }

    var databasePath: String { directory.appendingPathComponent("league.sqlite").path }

    init(_ kind: StorageKind, retention: RetentionPolicy = .default) throws {
        self.kind = kind
        self.retention = retention
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("goalstore-\(UUID().uuidString.lowercased())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("league.sqlite").path
        switch kind {
        case .memory:
            postgres = nil
            storage = InMemoryLeagueStorage(retention: retention)
        case .sqlite:
            postgres = nil
            storage = try SQLiteLeagueStorage(path: path, retention: retention)
        case .postgres:
            let database = try PostgresTestServer.makeDatabase()
            postgres = database
            storage = try PostgresLeagueStorage(configuration: database, retention: retention)
        }
    }

    /// Closes and reopens the SQLite file or the PostgreSQL store; a no-op for the in-memory store.
    func reopen() throws {
        switch kind {
        case .memory:
            return
        case .sqlite:
            try storage.close()
            storage = try SQLiteLeagueStorage(path: databasePath, retention: retention)
        case .postgres:
            guard let postgres else { return }
            try storage.close()
            storage = try PostgresLeagueStorage(configuration: postgres, retention: retention)
        }
    }

    deinit {
        // Cleanup only: the test's assertions are made, and a leftover file or database harms no other test.
        try? storage.close()
        try? FileManager.default.removeItem(at: directory)
        if let postgres { try? PostgresTestServer.dropDatabase(postgres) }
    }
}

/// Drives the real conflict engine and turns its decisions into store batches the way the daemon does:
/// each commit gets a time, a GoalWire frame and its chained digest; every touched client's final record goes
/// with the batch.
struct LeagueDriver {
    var state = LeagueState()
    var digest = Digest.genesis
    /// Every frame ever built, by revision.
    var frames: [Revision: [UInt8]] = [:]
    /// Whether `frames` is filled (bulk runs turn it off).
    var keepsFrames = true
    private var commits: [LoggedCommit] = []
    private var touched: [ClientInstanceID] = []
    private var forgotten: [ClientInstanceID] = []
    private var seqs: [ClientInstanceID: UInt64] = [:]
    /// Commit time of revision R: R seconds after the epoch start, so retention tests can reason about ages.
    static func time(of revision: Revision) -> Timestamp {
        Timestamp(millisecondsSince1970: 1_700_000_000_000 + Int64(revision) * 1000)
    }

    init() {}

    /// Continues from a recovered league.
    init(recovered league: DurableLeague) {
        state = league.state
        digest = league.headDigest
        for record in league.state.allClientRecords { seqs[record.instance] = record.lastSeq }
    }

    /// Applies one mutation from `instance` (next seq unless given) at `base` (the head unless given).
    @discardableResult
    mutating func mutate(
        _ action: MutationAction,
        by instance: ClientInstanceID,
        seq: UInt64? = nil,
        base: Revision? = nil,
        author: String = "editor"
    ) -> EngineDecision {
        let seq = seq ?? (seqs[instance] ?? 0) + 1
        seqs[instance] = max(seqs[instance] ?? 0, seq)
        let mutation = Mutation(
            id: MutationID(instance: instance, seq: seq),
            base: base ?? state.revision,
            action: action
        )
        let decision = ConflictEngine.apply(mutation, author: author, to: &state)
        // As the server's engine does: the record is stamped with the clock (here: the next commit's time).
        state.markClientRecordUsed(instance, at: LeagueDriver.time(of: state.revision))
        if !touched.contains(instance) { touched.append(instance) }
        if case .commit(let commit) = decision {
            let draft = commit.changeset(time: LeagueDriver.time(of: commit.revision), digest: .genesis)
            let frame = ChangesetFrame.encode(draft, previousDigest: digest)
            digest = frame.digest
            if keepsFrames { frames[commit.revision] = frame.bytes }
            commits.append(
                LoggedCommit(changeset: commit.changeset(time: draft.time, digest: frame.digest), frame: frame.bytes)
            )
        }
        return decision
    }

    /// Forgets the records last used before `cutoff`, as the engine's sweep does; the next batch deletes them.
    mutating func forgetClientRecords(usedBefore cutoff: Timestamp) -> [ClientInstanceID] {
        let gone = state.forgetClientRecords(usedBefore: cutoff)
        forgotten += gone
        for instance in gone { seqs[instance] = nil }
        return gone
    }

    /// The batch of everything since the last call.
    mutating func takeBatch() -> StorageBatch {
        let records = touched.compactMap { state.clientRecord(for: $0) }
        let batch = StorageBatch(commits: commits, clientRecords: records, forgottenClients: forgotten)
        commits = []
        touched = []
        forgotten = []
        return batch
    }
}

extension ClientInstanceID {
    static let alpha = ClientInstanceID("alpha-instance")!
    static let beta = ClientInstanceID("beta-instance")!
}

/// A secret hash for tests: 32 bytes derived from a seed (the store never hashes).
func testHash(_ seed: UInt8) -> [UInt8] { (0..<32).map { UInt8(truncatingIfNeeded: Int($0) &* 7 &+ Int(seed)) } }

extension LeagueDriver {
    /// Revisions 1–5, all by alpha: alice, bob, carol and dave, then `ids.match` with `home` (alice and bob unless
    /// given) against `away` (carol and dave), `homeGoals` to 0.
    mutating func seedFourPlayersAndMatch(
        _ ids: Ids,
        home: [PlayerID]? = nil,
        away: [PlayerID]? = nil,
        homeGoals: Int = 0
    ) {
        for (id, name) in [(ids.alice, "alice"), (ids.bob, "bob"), (ids.carol, "carol"), (ids.dave, "dave")] {
            mutate(.createPlayer(id: id, name: name), by: .alpha)
        }
        mutate(
            .createMatch(
                id: ids.match,
                homePlayers: home ?? [ids.alice, ids.bob],
                awayPlayers: away ?? [ids.carol, ids.dave],
                homeGoals: homeGoals,
                awayGoals: 0
            ),
            by: .alpha
        )
    }
}

/// Player and match ids fixed per test.
struct Ids {
    let alice = PlayerID()
    let bob = PlayerID()
    let carol = PlayerID()
    let dave = PlayerID()
    let match = MatchID()
}
