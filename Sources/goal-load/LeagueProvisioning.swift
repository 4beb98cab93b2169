import GoalModel
import GoalTransport
import GoalWire

/// Makes sure every league of a run exists before any connection opens: lists the leagues the token sees, creates
/// the missing ones over the HTTP API (`LeagueDirectoryClient`), a few at a time.
///
/// Creating a league takes an operator token (an admin token not confined to leagues); a 409 (the league exists,
/// made meanwhile or not visible to the token) counts as existing. Stateless; the async entry point runs in the
/// caller's task and its child tasks.
enum LeagueProvisioning {
    /// What provisioning did.
    struct Outcome: Sendable, Equatable {
        /// Leagues of the run that were listed already.
        var existing: Int
        /// Leagues created now (a 409, one made meanwhile, counts here too).
        var created: Int
    }

    /// The leagues of `wanted` not in `listed`, in `wanted`'s order.
    static func missing(_ wanted: [LeagueSlug], listed: [LeagueListing]) -> [LeagueSlug] {
        let known = Set(listed.map(\.id))
        return wanted.filter { !known.contains($0) }
    }

    /// The display name goal-load gives a league it creates.
    static func name(of slug: LeagueSlug) -> String { "goal-load \(slug.rawValue)" }

    /// The run's error for a refused list or create, saying what to do.
    static func refusal(_ error: LeagueDirectoryError, creating slug: LeagueSlug?) -> LoadError {
        let what = slug.map { "cannot create league \($0.rawValue)" } ?? "cannot list the leagues"
        switch error.status {
        case 401?, 403?:
            return .connect(
                "\(what): \(error). Creating leagues takes an operator token (an admin token not confined to "
                    + "leagues, like the one goald makes at its first start, or `goald token create --role admin` "
                    + "without --league); or create them first with `goald league create`"
            )
        default:
            return .connect("\(what): \(error)")
        }
    }

    /// Lists the leagues, then creates the missing ones, at most `concurrency` at once.
    /// - Throws: `LoadError.connect` for the first refusal or failure (`refusal`).
    static func ensure(
        _ wanted: [LeagueSlug],
        client: LeagueDirectoryClient,
        concurrency: Int,
        progress: @Sendable (String) -> Void
    ) async throws(LoadError) -> Outcome {
        let listed: [LeagueListing]
        do {
            listed = try await client.listLeagues()
        } catch {
            throw refusal(error, creating: nil)
        }
        let missing = missing(wanted, listed: listed)
        if !missing.isEmpty { progress("leagues: creating \(missing.count) of \(wanted.count)") }
        let failure = await withTaskGroup(of: LoadError?.self) { group -> LoadError? in
            var next = 0
            var done = 0
            func add() {
                let slug = missing[next]
                next += 1
                group.addTask {
                    do throws(LeagueDirectoryError) {
                        _ = try await client.createLeague(id: slug, name: name(of: slug))
                        return nil
                    } catch {
                        return error.isLeagueExists ? nil : refusal(error, creating: slug)
                    }
                }
            }
            while next < missing.count, next < max(1, concurrency) { add() }
            for await result in group {
                if let result {
                    group.cancelAll()
                    return result
                }
                done += 1
                if done % 100 == 0 { progress("leagues: \(done)/\(missing.count) created") }
                if next < missing.count { add() }
            }
            return nil
        }
        if let failure { throw failure }
        return Outcome(existing: wanted.count - missing.count, created: missing.count)
    }
}
