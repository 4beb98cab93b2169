import Foundation

/// `goald_append`, the stored function that writes one batch in ONE statement, and `goald_changes`, the read it
/// answers with (schema v4). The league row is the one serialization point between nodes, and a node holding it
/// should wait for nothing: sampling `pg_stat_activity` under three nodes with a transaction of separate statements
/// showed the holder idle in its transaction, waiting for goald's next statement, about six times as often as
/// executing one, and another node waiting for the row in 40 % of the samples (docs/BENCHMARKS.md, "One statement
/// per batch").
///
/// `goald_append` locks the league row. With `expected_revision`/`expected_version` (the head the batch was
/// decided on) and a league that moved past it, it writes nothing and answers `appended = false` with the head it
/// found and everything written since (`goald_changes`'s columns), so the caller decides the batch again and
/// retries without another read (`PostgresWriter`). Otherwise it deletes, upserts and inserts what the batch
/// changed (in the order its comments give), moves the head (`new_head_revision`/`new_head_digest`, NULL keeps it)
/// and the version (`new_version`, NULL for the locked one + 1), and notifies `PostgresSchema.headChannel`
/// (delivered at commit). NULL arrays are not accepted: an empty array writes no rows.
///
/// A change to either function is a new migration with `CREATE OR REPLACE FUNCTION`, never an edit of this one.
/// Schema v5 adds `goald_append` with one parameter more, `notice` (`createWithNotice`), beside v4's: a node of the
/// previous release keeps writing through v4's until it is upgraded.
enum PostgresAppendFunction {
    /// `goald_changes(after_revision, after_version)`: the head, the log rows after `after_revision` up to it and
    /// the client records written after `after_version`, as one row of arrays read in one statement (one snapshot,
    /// one round trip). What a node reads to follow the others, and what `goald_append` answers when it refuses.
    static let createChanges = """
        CREATE OR REPLACE FUNCTION goald_changes(after_revision BIGINT, after_version BIGINT)
        RETURNS TABLE (
            head_revision BIGINT, head_version BIGINT,
            later_revisions BIGINT[], later_frames BYTEA[], later_instances TEXT[], later_last_seqs BIGINT[],
            later_results BYTEA[], later_last_used BIGINT[]
        )
        LANGUAGE sql STABLE AS $goald$
            SELECT l.head_revision, l.version,
                ARRAY(SELECT c.revision FROM changesets c
                    WHERE c.revision > after_revision AND c.revision <= l.head_revision ORDER BY c.revision),
                ARRAY(SELECT c.frame FROM changesets c
                    WHERE c.revision > after_revision AND c.revision <= l.head_revision ORDER BY c.revision),
                ARRAY(SELECT r.instance FROM client_records r WHERE r.version > after_version ORDER BY r.instance),
                ARRAY(SELECT r.last_seq FROM client_records r WHERE r.version > after_version ORDER BY r.instance),
                ARRAY(SELECT r.results FROM client_records r WHERE r.version > after_version ORDER BY r.instance),
                ARRAY(SELECT r.last_used FROM client_records r WHERE r.version > after_version ORDER BY r.instance)
            FROM league l WHERE l.id = 1
        $goald$
        """

    static let create = """
        CREATE OR REPLACE FUNCTION goald_append(
            expected_revision BIGINT, expected_version BIGINT,
            new_version BIGINT, new_head_revision BIGINT, new_head_digest BYTEA,
            deleted_matches TEXT[], rewritten_matches TEXT[], deleted_players TEXT[], forgotten_clients TEXT[],
            player_ids TEXT[], player_names TEXT[], player_keys TEXT[], player_created_revs BIGINT[],
            player_created_by TEXT[], player_name_revs BIGINT[], player_name_by TEXT[],
            match_ids TEXT[], match_home_goals INTEGER[], match_away_goals INTEGER[], match_created_revs BIGINT[],
            match_created_by TEXT[], match_home_players_revs BIGINT[], match_home_players_by TEXT[],
            match_away_players_revs BIGINT[], match_away_players_by TEXT[], match_home_goals_revs BIGINT[],
            match_home_goals_by TEXT[], match_away_goals_revs BIGINT[], match_away_goals_by TEXT[],
            slot_matches TEXT[], slot_sides SMALLINT[], slot_positions INTEGER[], slot_players TEXT[],
            log_revisions BIGINT[], log_authors TEXT[], log_times BIGINT[], log_digests BYTEA[],
            log_instances TEXT[], log_seqs BIGINT[], log_frames BYTEA[],
            index_kinds SMALLINT[], index_ids TEXT[], index_revisions BIGINT[],
            record_instances TEXT[], record_last_seqs BIGINT[], record_results BYTEA[], record_last_used BIGINT[]
        ) RETURNS TABLE (
            appended BOOLEAN, head_revision BIGINT, head_version BIGINT,
            later_revisions BIGINT[], later_frames BYTEA[], later_instances TEXT[], later_last_seqs BIGINT[],
            later_results BYTEA[], later_last_used BIGINT[]
        )
        LANGUAGE plpgsql AS $goald$
        DECLARE
            locked_revision BIGINT;
            locked_version BIGINT;
            written_version BIGINT;
        BEGIN
            SELECT league.head_revision, league.version INTO locked_revision, locked_version
            FROM league WHERE league.id = 1 FOR UPDATE;
            IF NOT FOUND THEN
                RAISE EXCEPTION 'goald: the league row is missing';
            END IF;
            IF expected_version IS NOT NULL THEN
                IF locked_version <> expected_version THEN
                    -- No writer can commit meanwhile: this one holds the row.
                    RETURN QUERY SELECT false, later.* FROM goald_changes(expected_revision, expected_version) later;
                    RETURN;
                END IF;
                IF cardinality(log_revisions) > 0 AND log_revisions[1] <> locked_revision + 1 THEN
                    RAISE EXCEPTION 'goald: a batch starting at revision % does not follow the head %',
                        log_revisions[1], locked_revision;
                END IF;
            END IF;
            written_version := COALESCE(new_version, locked_version + 1);

            -- Entities: deleted matches (their slots go with them: ON DELETE CASCADE), the slots of rewritten
            -- matches, deleted players, then player and match upserts and the new slots.
            IF cardinality(deleted_matches) > 0 THEN
                DELETE FROM matches WHERE matches.id = ANY(deleted_matches);
            END IF;
            IF cardinality(rewritten_matches) > 0 THEN
                DELETE FROM match_players WHERE match_players.match_id = ANY(rewritten_matches);
            END IF;
            IF cardinality(deleted_players) > 0 THEN
                DELETE FROM players WHERE players.id = ANY(deleted_players);
            END IF;
            INSERT INTO players (id, name, name_key, created_rev, created_by, name_rev, name_by)
            SELECT * FROM unnest(player_ids, player_names, player_keys, player_created_revs, player_created_by,
                player_name_revs, player_name_by)
            ON CONFLICT (id) DO UPDATE SET
                name = excluded.name, name_key = excluded.name_key,
                created_rev = excluded.created_rev, created_by = excluded.created_by,
                name_rev = excluded.name_rev, name_by = excluded.name_by;
            INSERT INTO matches (id, home_goals, away_goals, created_rev, created_by,
                home_players_rev, home_players_by, away_players_rev, away_players_by,
                home_goals_rev, home_goals_by, away_goals_rev, away_goals_by)
            SELECT * FROM unnest(match_ids, match_home_goals, match_away_goals, match_created_revs, match_created_by,
                match_home_players_revs, match_home_players_by, match_away_players_revs, match_away_players_by,
                match_home_goals_revs, match_home_goals_by, match_away_goals_revs, match_away_goals_by)
            ON CONFLICT (id) DO UPDATE SET
                home_goals = excluded.home_goals, away_goals = excluded.away_goals,
                created_rev = excluded.created_rev, created_by = excluded.created_by,
                home_players_rev = excluded.home_players_rev, home_players_by = excluded.home_players_by,
                away_players_rev = excluded.away_players_rev, away_players_by = excluded.away_players_by,
                home_goals_rev = excluded.home_goals_rev, home_goals_by = excluded.home_goals_by,
                away_goals_rev = excluded.away_goals_rev, away_goals_by = excluded.away_goals_by;
            INSERT INTO match_players (match_id, side, position, player_id)
            SELECT * FROM unnest(slot_matches, slot_sides, slot_positions, slot_players);

            -- The log with its history index, then the exactly-once records (forgotten ones first).
            INSERT INTO changesets (revision, author, time, digest, client_instance, seq, frame)
            SELECT r.revision, r.author, r.time, r.digest, NULLIF(r.instance, ''), NULLIF(r.seq, -1), r.frame
            FROM unnest(log_revisions, log_authors, log_times, log_digests, log_instances, log_seqs, log_frames)
                AS r(revision, author, time, digest, instance, seq, frame);
            INSERT INTO changeset_entities (kind, entity_id, revision)
            SELECT * FROM unnest(index_kinds, index_ids, index_revisions)
            ON CONFLICT DO NOTHING;
            IF cardinality(forgotten_clients) > 0 THEN
                DELETE FROM client_records WHERE client_records.instance = ANY(forgotten_clients);
            END IF;
            INSERT INTO client_records (instance, last_seq, results, last_used, version)
            SELECT r.instance, r.last_seq, r.results, r.last_used, written_version
            FROM unnest(record_instances, record_last_seqs, record_results, record_last_used)
                AS r(instance, last_seq, results, last_used)
            ON CONFLICT (instance) DO UPDATE SET
                last_seq = excluded.last_seq, results = excluded.results, last_used = excluded.last_used,
                version = excluded.version;

            UPDATE league SET head_revision = COALESCE(new_head_revision, locked_revision),
                head_digest = COALESCE(new_head_digest, league.head_digest), version = written_version
            WHERE league.id = 1;
            PERFORM pg_notify('\(PostgresSchema.headChannel)', written_version::TEXT);
            RETURN QUERY SELECT true, COALESCE(new_head_revision, locked_revision), written_version,
                NULL::BIGINT[], NULL::BYTEA[], NULL::TEXT[], NULL::BIGINT[], NULL::BYTEA[], NULL::BIGINT[];
        END
        $goald$
        """

    /// `goald_append(…, notice)` (schema v5): v4's function, except that the notification carries `notice` (a
    /// `PostgresHeadNotice` body: the batch, so the other nodes need not read it) after a header line of the version
    /// written, the version and the revision it was written on. Without a notice, or one too large for NOTIFY, it
    /// sends the version alone, as v4 does. Derived from `create` by replacing exactly those two places, so the
    /// two versions' writes cannot drift apart.
    static let createWithNotice: String = {
        let parameters = "record_results BYTEA[], record_last_used BIGINT[]\n"
        let notify = "PERFORM pg_notify('\(PostgresSchema.headChannel)', written_version::TEXT);"
        // 7900: `PostgresHeadNotice.bodyLimit` when this migration shipped; a literal, so the migration never changes.
        let withNotice = """
            IF notice IS NOT NULL AND octet_length(notice) <= 7900 THEN
                        PERFORM pg_notify('\(PostgresSchema.headChannel)', written_version::TEXT || ' ' ||
                            locked_version::TEXT || ' ' || locked_revision::TEXT || E'\\n' || notice);
                    ELSE
                        \(notify)
                    END IF;
            """
        precondition(create.components(separatedBy: parameters).count == 2, "v4's parameter list moved")
        precondition(create.components(separatedBy: notify).count == 2, "v4's notification moved")
        return create.replacingOccurrences(
            of: parameters,
            with: "record_results BYTEA[], record_last_used BIGINT[],\n    notice TEXT\n"
        )
        .replacingOccurrences(of: notify, with: withNotice)
    }()
}
