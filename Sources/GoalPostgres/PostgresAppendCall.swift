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
    func run(_ connection: PostgresConnection) throws -> Outcome {
        let last = movesHead ? batch.commits.last : nil
        let headRevision = last.map { PostgresCoding.integer($0.revision) }
        let headDigest = last.map { ByteBuffer(bytes: $0.changeset.digest.bytes) }
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
        let rows = try connection.run(
            """
            SELECT * FROM goald_append(
                \(base.map { PostgresCoding.integer($0.revision) })::BIGINT, \(base?.version)::BIGINT,
                \(newVersion)::BIGINT, \(headRevision)::BIGINT, \(headDigest)::BYTEA,
                \(entities.deletedMatches)::TEXT[], \(matches.map(\.id.description))::TEXT[],
                \(entities.deletedPlayers)::TEXT[], \(batch.forgottenClients.map(\.rawValue))::TEXT[],
                \(players.map(\.id.description))::TEXT[], \(players.map(\.name))::TEXT[],
                \(players.map(\.nameKey))::TEXT[],
                \(players.map { PostgresCoding.integer($0.created.revision) })::BIGINT[],
                \(players.map(\.created.writer.rawValue))::TEXT[],
                \(players.map { PostgresCoding.integer($0.nameStamp.revision) })::BIGINT[],
                \(players.map(\.nameStamp.writer.rawValue))::TEXT[],
                \(matches.map(\.id.description))::TEXT[], \(matches.map { Int32(clamping: $0.homeGoals) })::INTEGER[],
                \(matches.map { Int32(clamping: $0.awayGoals) })::INTEGER[],
                \(matchRevisions(\.created))::BIGINT[], \(matchWriters(\.created))::TEXT[],
                \(matchRevisions(\.stamps.homePlayers))::BIGINT[], \(matchWriters(\.stamps.homePlayers))::TEXT[],
                \(matchRevisions(\.stamps.awayPlayers))::BIGINT[], \(matchWriters(\.stamps.awayPlayers))::TEXT[],
                \(matchRevisions(\.stamps.homeGoals))::BIGINT[], \(matchWriters(\.stamps.homeGoals))::TEXT[],
                \(matchRevisions(\.stamps.awayGoals))::BIGINT[], \(matchWriters(\.stamps.awayGoals))::TEXT[],
                \(slots.matches)::TEXT[], \(slots.sides)::SMALLINT[], \(slots.positions)::INTEGER[],
                \(slots.players)::TEXT[],
                \(log.revisions)::BIGINT[], \(log.authors)::TEXT[], \(log.times)::BIGINT[], \(log.digests)::BYTEA[],
                \(log.writers)::TEXT[], \(log.seqs)::BIGINT[], \(log.frames)::BYTEA[],
                \(log.indexKinds)::SMALLINT[], \(log.indexIDs)::TEXT[], \(log.indexRevisions)::BIGINT[],
                \(records.map(\.instance.rawValue))::TEXT[], \(records.map { Int64(clamping: $0.lastSeq) })::BIGINT[],
                \(encodedResults.map { ByteBuffer(bytes: $0) })::BYTEA[],
                \(records.map(\.lastUsed.millisecondsSince1970))::BIGINT[],
                \(notice)::TEXT
            )
            """
        )
        guard let row = rows.first else { throw StorageError.inconsistent("goald_append answered no row") }
        let cells = row.makeRandomAccess()
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
