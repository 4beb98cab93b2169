import GoalModel
import GoalStore
import GoalWire
import NIOCore
import PostgresNIO

/// One call of `goald_append` (`PostgresAppendFunction`): a batch's rows as one array per column, so a batch of
/// any size is one statement and one round trip. Value type; built and run on the writer's thread.
struct PostgresAppendCall {
    /// What the function answered.
    enum Outcome {
        /// Written; the head after it.
        case appended(StoreHead)
        /// Nothing written: the league had moved past the expected head, and this is what was written since.
        case moved(ForeignChanges)
    }

    private let batch: StorageBatch
    private let entities: EntityEffects
    /// The head the batch was decided on: nothing is written when the league moved past it. Nil writes whatever
    /// the head is (an import).
    private let base: StoreHead?
    /// The version to leave, and to stamp written client records with; nil for the locked one + 1.
    private let newVersion: StoreVersion?
    /// Whether the league's head moves to the batch's last commit.
    private let movesHead: Bool

    /// A batch's log rows, the entity states they leave and its client records.
    init(_ batch: StorageBatch, onto base: StoreHead) {
        var effects = EntityEffects()
        for commit in batch.commits {
            for change in commit.changeset.changes { effects.add(change) }
        }
        self.init(batch, entities: effects, onto: base, newVersion: nil, movesHead: true)
    }

    /// Writes `entities` along with `batch` (an import writes a whole league's entities with no commit).
    init(
        _ batch: StorageBatch,
        entities: EntityEffects,
        onto base: StoreHead?,
        newVersion: StoreVersion?,
        movesHead: Bool
    ) {
        self.batch = batch
        self.entities = entities
        self.base = base
        self.newVersion = newVersion
        self.movesHead = movesHead
    }

    /// Runs the function on `connection`: its own transaction outside one, part of the caller's inside one.
    /// - Parameter function: `goald_append` (the connection's `search_path` finds it), or a league's qualified one.
    func run(_ connection: PostgresConnection, function: String = "goald_append") throws -> Outcome {
        var query = PostgresQuery.StringInterpolation(literalCapacity: 2_048, interpolationCount: 46)
        query.appendLiteral("SELECT * FROM ")
        appendCall(to: &query, function: function)
        guard let row = try connection.run(PostgresQuery(stringInterpolation: query)).first else {
            throw StorageError.inconsistent("goald_append answered no row")
        }
        return try outcome(of: row.makeRandomAccess())
    }

    /// Appends `function(arguments…)` to `query`, every argument bound and cast to its parameter's type:
    /// `function` is `goald_append`, or a league's `goald_league_<slug>.goald_append` (`PostgresAppendRound`).
    func appendCall(to query: inout PostgresQuery.StringInterpolation, function: String) {
        let last = movesHead ? batch.commits.last : nil
        let players = Array(entities.players.values)
        let matches = Array(entities.matches.values)
        let slots = MatchSlots(matches)
        let log = LogRows(batch.commits)
        let records = batch.clientRecords
        let encodedResults = records.map { ClientResultsCoding.encode($0.results) }
        // The other nodes take the batch from its notification when it fits; an import only rings.
        let notice =
            base != nil && movesHead ? PostgresHeadNotice.body(of: batch, encodedResults: encodedResults) : nil
        func matchRevisions(_ stamp: (Match) -> FieldStamp) -> [Int64] {
            matches.map { PostgresCoding.integer(stamp($0).revision) }
        }
        func matchWriters(_ stamp: (Match) -> FieldStamp) -> [String] { matches.map { stamp($0).writer.rawValue } }
        var separator = "("
        func bind<Value: PostgresDynamicTypeEncodable>(_ value: Value?, as type: String) {
            query.appendLiteral(separator)
            query.appendInterpolation(value)
            query.appendLiteral("::\(type)")
            separator = ", "
        }
        query.appendInterpolation(unescaped: function)
        bind(base.map { PostgresCoding.integer($0.revision) }, as: "BIGINT")
        bind(base?.version, as: "BIGINT")
        bind(newVersion, as: "BIGINT")
        bind(last.map { PostgresCoding.integer($0.revision) }, as: "BIGINT")
        bind(last.map { ByteBuffer(bytes: $0.changeset.digest.bytes) }, as: "BYTEA")
        bind(entities.deletedMatches, as: "TEXT[]")
        bind(matches.map(\.id.description), as: "TEXT[]")
        bind(entities.deletedPlayers, as: "TEXT[]")
        bind(batch.forgottenClients.map(\.rawValue), as: "TEXT[]")
        bind(players.map(\.id.description), as: "TEXT[]")
        bind(players.map(\.name), as: "TEXT[]")
        bind(players.map(\.nameKey), as: "TEXT[]")
        bind(players.map { PostgresCoding.integer($0.created.revision) }, as: "BIGINT[]")
        bind(players.map(\.created.writer.rawValue), as: "TEXT[]")
        bind(players.map { PostgresCoding.integer($0.nameStamp.revision) }, as: "BIGINT[]")
        bind(players.map(\.nameStamp.writer.rawValue), as: "TEXT[]")
        bind(matches.map(\.id.description), as: "TEXT[]")
        bind(matches.map { Int32(clamping: $0.homeGoals) }, as: "INTEGER[]")
        bind(matches.map { Int32(clamping: $0.awayGoals) }, as: "INTEGER[]")
        bind(matchRevisions(\.created), as: "BIGINT[]")
        bind(matchWriters(\.created), as: "TEXT[]")
        bind(matchRevisions(\.stamps.homePlayers), as: "BIGINT[]")
        bind(matchWriters(\.stamps.homePlayers), as: "TEXT[]")
        bind(matchRevisions(\.stamps.awayPlayers), as: "BIGINT[]")
        bind(matchWriters(\.stamps.awayPlayers), as: "TEXT[]")
        bind(matchRevisions(\.stamps.homeGoals), as: "BIGINT[]")
        bind(matchWriters(\.stamps.homeGoals), as: "TEXT[]")
        bind(matchRevisions(\.stamps.awayGoals), as: "BIGINT[]")
        bind(matchWriters(\.stamps.awayGoals), as: "TEXT[]")
        bind(slots.matches, as: "TEXT[]")
        bind(slots.sides, as: "SMALLINT[]")
        bind(slots.positions, as: "INTEGER[]")
        bind(slots.players, as: "TEXT[]")
        bind(log.revisions, as: "BIGINT[]")
        bind(log.authors, as: "TEXT[]")
        bind(log.times, as: "BIGINT[]")
        bind(log.digests, as: "BYTEA[]")
        bind(log.writers, as: "TEXT[]")
        bind(log.seqs, as: "BIGINT[]")
        bind(log.frames, as: "BYTEA[]")
        bind(log.indexKinds, as: "SMALLINT[]")
        bind(log.indexIDs, as: "TEXT[]")
        bind(log.indexRevisions, as: "BIGINT[]")
        bind(records.map(\.instance.rawValue), as: "TEXT[]")
        bind(records.map { Int64(clamping: $0.lastSeq) }, as: "BIGINT[]")
        bind(encodedResults.map { ByteBuffer(bytes: $0) }, as: "BYTEA[]")
        bind(records.map(\.lastUsed.millisecondsSince1970), as: "BIGINT[]")
        bind(notice, as: "TEXT")
        query.appendLiteral(")")
    }

    /// What the function answered in `cells` (its row).
    func outcome(of cells: PostgresRandomAccessRow) throws -> Outcome {
        if try cells["appended"].decode(Bool.self) {
            let revision = try PostgresCoding.revision(try cells["head_revision"].decode(Int64.self))
            return .appended(StoreHead(revision: revision, version: try cells["head_version"].decode(Int64.self)))
        }
        guard let base else { throw StorageError.inconsistent("goald_append refused a batch it had no head to check") }
        return .moved(try PostgresReader.foreignChanges(in: cells, after: base))
    }
}

/// The log rows of some commits, and their history index rows, one array per column. NULL log columns travel as
/// sentinels (`''`, -1) because Postgres arrays of a nullable type cannot be bound from Swift optionals here.
private struct LogRows {
    var revisions: [Int64] = []
    var authors: [String] = []
    var times: [Int64] = []
    var digests: [ByteBuffer] = []
    var writers: [String] = []
    var seqs: [Int64] = []
    var frames: [ByteBuffer] = []
    var indexKinds: [Int16] = []
    var indexIDs: [String] = []
    var indexRevisions: [Int64] = []

    init(_ commits: [LoggedCommit]) {
        for commit in commits {
            let changeset = commit.changeset
            revisions.append(PostgresCoding.integer(commit.revision))
            authors.append(changeset.author)
            times.append(changeset.time.millisecondsSince1970)
            digests.append(ByteBuffer(bytes: changeset.digest.bytes))
            writers.append(changeset.mutationID?.instance.rawValue ?? "")
            seqs.append(changeset.mutationID.map { Int64(clamping: $0.seq) } ?? -1)
            frames.append(ByteBuffer(bytes: commit.frame))
            for entity in EntityRef.written(by: changeset.changes) {
                indexKinds.append(EntityKindCode.of(entity))
                indexIDs.append(entity.id)
                indexRevisions.append(PostgresCoding.integer(commit.revision))
            }
        }
    }
}

/// Each written match's player slots: side 0 home, 1 away; position keeps the author's order.
private struct MatchSlots {
    var matches: [String] = []
    var sides: [Int16] = []
    var positions: [Int32] = []
    var players: [String] = []

    init(_ written: [Match]) {
        for match in written {
            for (side, list) in [(Int16(0), match.homePlayers), (Int16(1), match.awayPlayers)] {
                for (position, player) in list.enumerated() {
                    matches.append(match.id.description)
                    sides.append(side)
                    positions.append(Int32(position))
                    players.append(player.description)
                }
            }
        }
    }
}

/// The entities a run of changes leaves: for each id, its last state, or that it was deleted. Value type.
struct EntityEffects {
    var players: [PlayerID: Player] = [:]
    var matches: [MatchID: Match] = [:]
    var deletedPlayers: [String] = []
    var deletedMatches: [String] = []

    mutating func add(_ change: Change) {
        switch change {
        case .playerUpserted(let player):
            players[player.id] = player
        case .playerDeleted(let id):
            players[id] = nil
            deletedPlayers.append(id.description)
        case .matchUpserted(let match):
            matches[match.id] = match
        case .matchDeleted(let id):
            matches[id] = nil
            deletedMatches.append(id.description)
        case .ratingUpdated:
            break  // derived from matches; rebuilt on recovery
        }
    }
}
