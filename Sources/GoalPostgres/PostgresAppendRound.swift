import GoalStore
import PostgresNIO

/// Several leagues' `goald_append` calls in ONE statement, so one transaction and one WAL flush carry them all
/// (`PostgresCommitGroup`):
///
///     SELECT 0 AS goald_entry, a.* FROM goald_append(…) a
///     UNION ALL SELECT 1, a.* FROM goald_league_north.goald_append(…) a …
///
/// Each league's function runs with its own schema (`search_path` set on the function since schema v8), so the calls
/// need no connection of their own. PostgreSQL runs the branches in order and each locks its own league row, so the
/// calls are sorted the same way on every node (the default league first, then by schema) and two nodes' rounds never
/// wait for each other in a cycle. The statement is atomic: a refused call (`moved`) writes nothing for its league
/// and the others are written; an error writes nothing for any of them.
///
/// Value type; built and run on the calling thread.
struct PostgresAppendRound {
    /// One league's call.
    struct Entry {
        let call: PostgresAppendCall
        let namespace: PostgresLeagueNamespace

        /// The function to call: the home store's unqualified (the connection's `search_path` finds it), a league's
        /// in its schema.
        var function: String { namespace.schema.map { "\($0).goald_append" } ?? "goald_append" }

        /// The order every node takes league rows in: the default league first, then by schema.
        var lockOrder: String { namespace.schema ?? "" }
    }

    /// The calls, in lock order.
    let entries: [Entry]

    /// A round of `entries`, which must be in lock order (`lockOrder`, ascending): see the type's comment.
    init(inLockOrder entries: [Entry]) {
        self.entries = entries
    }

    /// Runs every call in one statement on `connection` (outside a transaction: the statement is its own).
    /// - Returns: Each entry's outcome, in `entries`' order.
    func run(_ connection: PostgresConnection) throws -> [PostgresAppendCall.Outcome] {
        var query = PostgresQuery.StringInterpolation(
            literalCapacity: 2_048 * entries.count,
            interpolationCount: 46 * entries.count
        )
        for (index, entry) in entries.enumerated() {
            query.appendLiteral(index == 0 ? "SELECT " : " UNION ALL SELECT ")
            query.appendInterpolation(unescaped: "\(index) AS goald_entry, a.* FROM ")
            entry.call.appendCall(to: &query, function: entry.function)
            query.appendLiteral(" a")
        }
        var outcomes = [PostgresAppendCall.Outcome?](repeating: nil, count: entries.count)
        for row in try connection.run(PostgresQuery(stringInterpolation: query)) {
            let cells = row.makeRandomAccess()
            let index = Int(try cells["goald_entry"].decode(Int32.self))
            guard outcomes.indices.contains(index), outcomes[index] == nil else {
                throw StorageError.inconsistent("goald_append answered entry \(index) of \(entries.count) twice")
            }
            outcomes[index] = try entries[index].call.outcome(of: cells)
        }
        return try outcomes.enumerated().map { index, outcome in
            guard let outcome else {
                throw StorageError.inconsistent("goald_append answered no row for entry \(index)")
            }
            return outcome
        }
    }
}
