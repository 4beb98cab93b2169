import Foundation
import GoalStore
import Logging
import NIOCore
import PostgresNIO

/// Group commit across leagues: the `goald_append` calls the node's leagues make at the same time go to PostgreSQL
/// together, in one statement on one connection (`PostgresAppendRound`), so one transaction and one WAL flush carry
/// them all, as one flush already carries many commits of one league.
///
/// Why: each league commits its own batches, so ten leagues of ten editors made ten times the transactions of one
/// league of a hundred, each paying the statement, the transaction and the flush; measured on three nodes, the
/// database spent 1.7 times the CPU per commit (docs/SCALING.md, "Many leagues on one database").
///
/// No thread of its own: a caller that finds no round running leads one with every call waiting (its own included)
/// and wakes the others when it is done; one that finds a round running waits for the next. Each league's writer
/// makes one call at a time, so a round holds at most one call per league. An error other than a lost connection
/// (the statement wrote nothing for anyone) runs each call of that round again alone, so one league's error never
/// fails another's write.
///
/// Threading: `@unchecked Sendable`: `waiting` and `leading` are read and written only with `condition` locked, and an
/// entry's `result` only under it too; callers block (the leagues' writer queues, never an event loop). Lifetime:
/// from `init` until `close()`; `PostgresNodeShare` owns it.
final class PostgresCommitGroup: @unchecked Sendable {
    /// One waiting call, and what its round answered.
    private final class Waiting {
        let entry: PostgresAppendRound.Entry
        var result: Result<PostgresAppendCall.Outcome, StorageError>?

        init(_ entry: PostgresAppendRound.Entry) { self.entry = entry }
    }

    private let condition = NSCondition()
    private var waiting: [Waiting] = []
    private var leading = false
    /// The rounds run and the calls they carried (`statistics`).
    private var rounds = 0
    private var calls = 0
    private let link: PostgresLink

    /// - Parameter configuration: The database (its home namespace: each call names its league's schema).
    init(configuration: PostgresStoreConfiguration, eventLoop: any EventLoop, logger: Logger) {
        var home = configuration
        home.namespace = .home
        link = PostgresLink(name: "commit group", configuration: home, eventLoop: eventLoop, logger: logger)
    }

    /// Runs `call` for the league of `namespace`, with whatever other leagues' calls wait at the same time; blocks
    /// until its round is done.
    func append(
        _ call: PostgresAppendCall,
        in namespace: PostgresLeagueNamespace
    ) throws(StorageError)
        -> PostgresAppendCall.Outcome
    {
        let mine = Waiting(PostgresAppendRound.Entry(call: call, namespace: namespace))
        condition.lock()
        waiting.append(mine)
        while mine.result == nil {
            guard !leading else {
                condition.wait()
                continue
            }
            leading = true
            // One call per league (each league's writer makes one at a time), taken in lock order.
            let round = waiting.sorted { $0.entry.lockOrder < $1.entry.lockOrder }
            waiting = []
            condition.unlock()
            let results = runRound(round.map(\.entry))
            condition.lock()
            for (entry, result) in zip(round, results) { entry.result = result }
            rounds += 1
            calls += round.count
            leading = false
            condition.broadcast()
        }
        let result = mine.result
        condition.unlock()
        switch result {
        case .success(let outcome): return outcome
        case .failure(let error): throw error
        case nil: throw StorageError.inconsistent("a commit round ended without an answer")
        }
    }

    /// How many rounds ran and how many calls they carried, since `init`.
    var statistics: (rounds: Int, calls: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (rounds, calls)
    }

    /// Closes the connection; later calls throw `StorageError.closed`. Idempotent.
    func close() {
        link.close()
    }

    /// One round: every entry (in lock order) in one statement; on an error that is not a lost connection, each
    /// alone.
    /// - Returns: Each entry's result, in `entries`' order.
    func runRound(_ entries: [PostgresAppendRound.Entry]) -> [Result<PostgresAppendCall.Outcome, StorageError>] {
        do throws(StorageError) {
            let outcomes = try link.withConnection("append") { try PostgresAppendRound(inLockOrder: entries).run($0) }
            return outcomes.map { .success($0) }
        } catch {
            guard entries.count > 1, !error.isTransient else { return entries.map { _ in .failure(error) } }
            return entries.map { entry in
                Result { () throws(StorageError) in
                    try link.withConnection("append") { try entry.call.run($0, function: entry.function) }
                }
            }
        }
    }
}
