import Foundation
import GRDB
import GoalModel

/// Everything `recover()` reads, in one read transaction (one consistent snapshot).
struct LeagueParts {
    var head: Revision
    var headDigest: Digest
    var epoch: LeagueEpoch
    var oldestRetained: Revision?
    var players: [Player]
    var matches: [Match]
    var clientRecords: [ClientRecord]

    func rebuild() throws(StorageError) -> DurableLeague {
        do {
            let state = try LeagueState(
                revision: head,
                players: players,
                matches: matches,
                clientRecords: clientRecords
            )
            return DurableLeague(
                state: state,
                headDigest: headDigest,
                epoch: epoch,
                oldestRetainedRevision: oldestRetained
            )
        } catch {
            throw .rebuildFailed(error)
        }
    }
}

/// Reads run on a reader connection, inside the transaction GRDB opens for them.
enum SQLiteReader {
    static func bounds(_ db: Database) throws -> LogBounds {
        guard let row = try Row.fetchOne(db, sql: "SELECT head_revision, head_digest FROM league WHERE id = 1") else {
            throw StorageError.inconsistent("the league row is missing")
        }
        let head = try SQLiteCoding.revision(try row.decode(Int64.self, atIndex: 0))
        let digest = try SQLiteCoding.digest(try row.decode(Data.self, atIndex: 1))
        // Two subqueries, not `SELECT MIN(revision), MAX(revision)`: SQLite answers a lone min() or max() of the
        // rowid from the b-tree's edge, but a query with both aggregates scans the whole log.
        let range = try Row.fetchOne(
            db,
            sql: "SELECT (SELECT MIN(revision) FROM changesets), (SELECT MAX(revision) FROM changesets)"
        )
        let oldest = try range?.decode(Int64?.self, atIndex: 0).map(SQLiteCoding.revision)
        if let newest = try range?.decode(Int64?.self, atIndex: 1), newest != Int64(clamping: head) {
            throw StorageError.inconsistent("the log ends at revision \(newest) but the head is \(head)")
        }
        return LogBounds(oldestRetainedRevision: oldest, head: head, headDigest: digest)
    }

    static func leagueParts(_ db: Database) throws -> LeagueParts {
        let bounds = try bounds(db)
        let epoch = try String.fetchOne(db, sql: "SELECT epoch FROM league WHERE id = 1") ?? ""
        return LeagueParts(
            head: bounds.head,
            headDigest: bounds.headDigest,
            epoch: LeagueEpoch(rawValue: epoch),
            oldestRetained: bounds.oldestRetainedRevision,
            players: try players(db),
            matches: try matches(db),
            clientRecords: try clientRecords(db)
        )
    }

    private static func players(_ db: Database) throws -> [Player] {
        let rows = try Row.fetchCursor(
            db,
            sql: "SELECT id, name, name_key, created_rev, created_by, name_rev, name_by FROM players"
        )
        var players: [Player] = []
        while let row = try rows.next() {
            players.append(
                Player(
                    id: try SQLiteCoding.playerID(try row.decode(atIndex: 0)),
                    name: try row.decode(atIndex: 1),
                    nameKey: try row.decode(atIndex: 2),
                    created: try SQLiteCoding.stamp(try row.decode(atIndex: 3), try row.decode(atIndex: 4)),
                    nameStamp: try SQLiteCoding.stamp(try row.decode(atIndex: 5), try row.decode(atIndex: 6))
                )
            )
        }
        return players
    }

    private static func matches(_ db: Database) throws -> [Match] {
        var sides: [String: ([PlayerID], [PlayerID])] = [:]
        let players = try Row.fetchCursor(
            db,
            sql: "SELECT match_id, side, player_id FROM match_players ORDER BY match_id, side, position"
        )
        while let row = try players.next() {
            let id: String = try row.decode(atIndex: 0)
            let player = try SQLiteCoding.playerID(try row.decode(atIndex: 2))
            if try row.decode(Int64.self, atIndex: 1) == 0 {
                sides[id, default: ([], [])].0.append(player)
            } else {
                sides[id, default: ([], [])].1.append(player)
            }
        }
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT id, home_goals, away_goals, created_rev, created_by,
                    home_players_rev, home_players_by, away_players_rev, away_players_by,
                    home_goals_rev, home_goals_by, away_goals_rev, away_goals_by
                FROM matches
                """
        )
        var matches: [Match] = []
        while let row = try rows.next() {
            let id: String = try row.decode(atIndex: 0)
            let (home, away) = sides[id] ?? ([], [])
            func stamp(_ index: Int) throws -> FieldStamp {
                try SQLiteCoding.stamp(try row.decode(atIndex: index), try row.decode(atIndex: index + 1))
            }
            matches.append(
                Match(
                    id: try SQLiteCoding.matchID(id),
                    homePlayers: home,
                    awayPlayers: away,
                    homeGoals: try row.decode(atIndex: 1),
                    awayGoals: try row.decode(atIndex: 2),
                    created: try stamp(3),
                    stamps: MatchStamps(
                        homePlayers: try stamp(5),
                        awayPlayers: try stamp(7),
                        homeGoals: try stamp(9),
                        awayGoals: try stamp(11)
                    )
                )
            )
        }
        return matches
    }

    private static func clientRecords(_ db: Database) throws -> [ClientRecord] {
        let rows = try Row.fetchCursor(db, sql: "SELECT instance, last_seq, results, last_used FROM client_records")
        var records: [ClientRecord] = []
        while let row = try rows.next() {
            records.append(
                try ClientRecordCoding.decode(
                    instance: try SQLiteCoding.instance(try row.decode(atIndex: 0)),
                    lastSeq: UInt64(clamping: try row.decode(Int64.self, atIndex: 1)),
                    results: try row.decode(atIndex: 2),
                    lastUsed: Timestamp(millisecondsSince1970: try row.decode(Int64.self, atIndex: 3))
                )
            )
        }
        return records
    }

    static func backlog(_ db: Database, after: Revision, upTo: Revision, limit: Int) throws -> [LogFrame] {
        let bounds = try bounds(db)
        let last = min(upTo, bounds.head)
        guard after < last, limit > 0 else { return [] }
        guard let oldest = bounds.oldestRetainedRevision, after + 1 >= oldest else {
            throw StorageError.backlogPruned(after: after, oldest: bounds.oldestRetainedRevision)
        }
        let rows = try Row.fetchCursor(
            db.cachedStatement(
                sql:
                    "SELECT revision, frame FROM changesets WHERE revision > ? AND revision <= ? ORDER BY revision LIMIT ?"
            ),
            arguments: [SQLiteCoding.integer(after), SQLiteCoding.integer(last), limit]
        )
        var frames: [LogFrame] = []
        var expected = after + 1
        while let row = try rows.next() {
            let revision = try SQLiteCoding.revision(try row.decode(Int64.self, atIndex: 0))
            guard revision == expected else {
                throw StorageError.inconsistent("the log skips from revision \(expected - 1) to \(revision)")
            }
            frames.append(LogFrame(revision: revision, bytes: [UInt8](try row.decode(Data.self, atIndex: 1))))
            expected += 1
        }
        return frames
    }
}
