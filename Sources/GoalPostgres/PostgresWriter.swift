import GoalModel
import GoalStore
import GoalWire
import NIOCore
import PostgresNIO

/// Writes one batch inside the caller's transaction in a fixed number of statements, whatever its size: each
/// table's rows go as arrays (`unnest`). It locks the league row first (the one serialization point between
/// writers, `SELECT … FOR UPDATE`); when another node wrote since the batch was decided, the batch is decided
/// again on what it wrote; then it checks contiguity with the stored head; then the log rows; then each entity's
/// state after the batch (deleted matches, the player lists of written matches, deleted players, player and match
/// upserts, the new player lists); then the forgotten and touched client records, the new head and version, and
/// the notification other nodes listen for. Any throw rolls the whole transaction back.
struct PostgresWriter {
    let connection: PostgresConnection

    /// Writes `batch` after locking the league row. With a `base`, a store that moved past it (another node wrote)
    /// first hands what was written since to `rebase` and writes the batch it returns instead.
    /// - Returns: The head after the transaction.
    func append(
        _ batch: StorageBatch,
        onto base: StoreHead?,
        rebase: (ForeignChanges) throws(StorageError) -> StorageBatch
    ) throws -> StoreHead {
        let locked = try lockHead()
        var batch = batch
        if let base, locked.version != base.version {
            batch = try rebase(try PostgresReader.changes(connection, after: base, head: locked))
        }
        guard !batch.isEmpty else { return locked }
        var expected = locked.revision + 1
        for commit in batch.commits {
            guard commit.revision == expected else {
                throw StorageError.revisionGap(expected: expected, found: commit.revision)
            }
            expected += 1
        }
        let version = locked.version + 1
        var effects = EntityEffects()
        for commit in batch.commits {
            for change in commit.changeset.changes { effects.add(change) }
        }
        try write(effects)
        if !batch.forgottenClients.isEmpty {
            let instances = batch.forgottenClients.map(\.rawValue)
            try connection.execute("DELETE FROM client_records WHERE instance = ANY(\(instances))")
        }
        try finish(batch, version: version)
        return StoreHead(revision: batch.lastRevision ?? locked.revision, version: version)
    }

    /// The log rows with their history index rows, the touched client records, the new head and version, and the notification other nodes
    /// listen for (delivered when the transaction commits), in ONE statement: the head row is locked meanwhile, so
    /// every round trip saved is time every other node waits less. The tables differ, so the data-modifying CTEs
    /// cannot see each other's rows, and need not. NULL log columns travel as sentinels (`''`, -1).
    func finish(_ batch: StorageBatch, version: StoreVersion) throws {
        let commits = batch.commits
        let revisions = commits.map { PostgresCoding.integer($0.revision) }
        let authors = commits.map(\.changeset.author)
        let times = commits.map(\.changeset.time.millisecondsSince1970)
        let digests = commits.map { ByteBuffer(bytes: $0.changeset.digest.bytes) }
        let writers = commits.map { $0.changeset.mutationID?.instance.rawValue ?? "" }
        let seqs = commits.map { $0.changeset.mutationID.map { Int64(clamping: $0.seq) } ?? -1 }
        let frames = commits.map { ByteBuffer(bytes: $0.frame) }
        var indexKinds: [Int16] = []
        var indexIDs: [String] = []
        var indexRevisions: [Int64] = []
        for commit in commits {
            for entity in EntityRef.written(by: commit.changeset.changes) {
                indexKinds.append(EntityKindCode.of(entity))
                indexIDs.append(entity.id)
                indexRevisions.append(PostgresCoding.integer(commit.revision))
            }
        }
        let records = batch.clientRecords
        let instances = records.map(\.instance.rawValue)
        let lastSeqs = records.map { Int64(clamping: $0.lastSeq) }
        let results = records.map { ByteBuffer(bytes: ClientResultsCoding.encode($0.results)) }
        let lastUsed = records.map(\.lastUsed.millisecondsSince1970)
        let head = batch.commits.last.map { PostgresCoding.integer($0.revision) }
        let headDigest = batch.commits.last.map { ByteBuffer(bytes: $0.changeset.digest.bytes) }
        try connection.execute(
            """
            WITH log AS (
                INSERT INTO changesets (revision, author, time, digest, client_instance, seq, frame)
                SELECT revision, author, time, digest, NULLIF(instance, ''), NULLIF(seq, -1), frame
                FROM unnest(\(revisions)::BIGINT[], \(authors)::TEXT[], \(times)::BIGINT[], \(digests)::BYTEA[],
                    \(writers)::TEXT[], \(seqs)::BIGINT[], \(frames)::BYTEA[])
                    AS row(revision, author, time, digest, instance, seq, frame)
            ), history AS (
                INSERT INTO changeset_entities (kind, entity_id, revision)
                SELECT * FROM unnest(\(indexKinds)::SMALLINT[], \(indexIDs)::TEXT[], \(indexRevisions)::BIGINT[])
                ON CONFLICT DO NOTHING
            ), records AS (
                INSERT INTO client_records (instance, last_seq, results, last_used, version)
                SELECT *, \(version)::BIGINT FROM unnest(\(instances)::TEXT[], \(lastSeqs)::BIGINT[],
                    \(results)::BYTEA[], \(lastUsed)::BIGINT[])
                ON CONFLICT (instance) DO UPDATE
                SET last_seq = excluded.last_seq, results = excluded.results, last_used = excluded.last_used,
                    version = excluded.version
            ), head AS (
                UPDATE league SET head_revision = COALESCE(\(head)::BIGINT, head_revision),
                    head_digest = COALESCE(\(headDigest)::BYTEA, head_digest), version = \(version)
                WHERE id = 1 RETURNING version
            )
            SELECT pg_notify(\(PostgresSchema.headChannel), version::TEXT) FROM head
            """
        )
    }

    /// Locks the league row (the one serialization point between writers) and reads the head it guards.
    private func lockHead() throws -> StoreHead {
        guard let row = try connection.run("SELECT head_revision, version FROM league WHERE id = 1 FOR UPDATE").first
        else {
            throw StorageError.inconsistent("the league row is missing")
        }
        let (revision, version) = try row.decode((Int64, Int64).self)
        return StoreHead(revision: try PostgresCoding.revision(revision), version: version)
    }

    /// Writes entities' states after a batch (or a whole league, for an import).
    func write(_ effects: EntityEffects) throws {
        if !effects.deletedMatches.isEmpty {
            // match_players rows go with them (ON DELETE CASCADE).
            try connection.execute("DELETE FROM matches WHERE id = ANY(\(effects.deletedMatches))")
        }
        let matches = Array(effects.matches.values)
        if !matches.isEmpty {
            let ids = matches.map(\.id.description)
            try connection.execute("DELETE FROM match_players WHERE match_id = ANY(\(ids))")
        }
        if !effects.deletedPlayers.isEmpty {
            try connection.execute("DELETE FROM players WHERE id = ANY(\(effects.deletedPlayers))")
        }
        try upsert(Array(effects.players.values))
        try upsert(matches)
    }

    private func upsert(_ players: [Player]) throws {
        guard !players.isEmpty else { return }
        let ids = players.map(\.id.description)
        let names = players.map(\.name)
        let keys = players.map(\.nameKey)
        let createdRevs = players.map { PostgresCoding.integer($0.created.revision) }
        let createdBy = players.map(\.created.writer.rawValue)
        let nameRevs = players.map { PostgresCoding.integer($0.nameStamp.revision) }
        let nameBy = players.map(\.nameStamp.writer.rawValue)
        try connection.execute(
            """
            INSERT INTO players (id, name, name_key, created_rev, created_by, name_rev, name_by)
            SELECT * FROM unnest(\(ids)::TEXT[], \(names)::TEXT[], \(keys)::TEXT[], \(createdRevs)::BIGINT[],
                \(createdBy)::TEXT[], \(nameRevs)::BIGINT[], \(nameBy)::TEXT[])
            ON CONFLICT (id) DO UPDATE SET
                name = excluded.name, name_key = excluded.name_key,
                created_rev = excluded.created_rev, created_by = excluded.created_by,
                name_rev = excluded.name_rev, name_by = excluded.name_by
            """
        )
    }

    private func upsert(_ matches: [Match]) throws {
        guard !matches.isEmpty else { return }
        func revisions(_ stamp: (Match) -> FieldStamp) -> [Int64] {
            matches.map { PostgresCoding.integer(stamp($0).revision) }
        }
        func writers(_ stamp: (Match) -> FieldStamp) -> [String] { matches.map { stamp($0).writer.rawValue } }
        let ids = matches.map(\.id.description)
        let homeGoals = matches.map { Int32(clamping: $0.homeGoals) }
        let awayGoals = matches.map { Int32(clamping: $0.awayGoals) }
        try connection.execute(
            """
            INSERT INTO matches (id, home_goals, away_goals, created_rev, created_by,
                home_players_rev, home_players_by, away_players_rev, away_players_by,
                home_goals_rev, home_goals_by, away_goals_rev, away_goals_by)
            SELECT * FROM unnest(\(ids)::TEXT[], \(homeGoals)::INTEGER[], \(awayGoals)::INTEGER[],
                \(revisions(\.created))::BIGINT[], \(writers(\.created))::TEXT[],
                \(revisions(\.stamps.homePlayers))::BIGINT[], \(writers(\.stamps.homePlayers))::TEXT[],
                \(revisions(\.stamps.awayPlayers))::BIGINT[], \(writers(\.stamps.awayPlayers))::TEXT[],
                \(revisions(\.stamps.homeGoals))::BIGINT[], \(writers(\.stamps.homeGoals))::TEXT[],
                \(revisions(\.stamps.awayGoals))::BIGINT[], \(writers(\.stamps.awayGoals))::TEXT[])
            ON CONFLICT (id) DO UPDATE SET
                home_goals = excluded.home_goals, away_goals = excluded.away_goals,
                created_rev = excluded.created_rev, created_by = excluded.created_by,
                home_players_rev = excluded.home_players_rev, home_players_by = excluded.home_players_by,
                away_players_rev = excluded.away_players_rev, away_players_by = excluded.away_players_by,
                home_goals_rev = excluded.home_goals_rev, home_goals_by = excluded.home_goals_by,
                away_goals_rev = excluded.away_goals_rev, away_goals_by = excluded.away_goals_by
            """
        )
        // Each match's player lists: side 0 home, 1 away; position keeps the author's order.
        var matchIDs: [String] = []
        var sides: [Int16] = []
        var positions: [Int32] = []
        var players: [String] = []
        for match in matches {
            for (side, list) in [(Int16(0), match.homePlayers), (Int16(1), match.awayPlayers)] {
                for (position, player) in list.enumerated() {
                    matchIDs.append(match.id.description)
                    sides.append(side)
                    positions.append(Int32(position))
                    players.append(player.description)
                }
            }
        }
        guard !matchIDs.isEmpty else { return }
        try connection.execute(
            """
            INSERT INTO match_players (match_id, side, position, player_id)
            SELECT * FROM unnest(\(matchIDs)::TEXT[], \(sides)::SMALLINT[], \(positions)::INTEGER[],
                \(players)::TEXT[])
            """
        )
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
