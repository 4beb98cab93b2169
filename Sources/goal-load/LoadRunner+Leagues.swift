import GoalModel
import GoalTransport
import NIOPosix

/// The league side of a run (`--leagues`): creating the leagues, setting each up, and reading each league's view
/// on every node at the end.
extension LoadRunner {
    /// Setups, final reads and league creations in progress at once with several leagues.
    static let leagueConcurrency = 8

    /// Creates the run's missing leagues over the HTTP API of the first node, with the run's token and trust.
    func provisionLeagues(group: MultiThreadedEventLoopGroup) async throws(LoadError) {
        let wanted = configuration.leagues.named
        let client: LeagueDirectoryClient
        do {
            client = try LeagueDirectoryClient(
                endpoint: configuration.endpoint,
                security: configuration.security,
                token: configuration.token,
                group: group
            )
        } catch {
            throw .connect("cannot set up TLS: \(error)")
        }
        let outcome = try await LeagueProvisioning.ensure(
            wanted,
            client: client,
            concurrency: Self.leagueConcurrency,
            progress: progress
        )
        progress("leagues: \(wanted.count) (\(outcome.existing) existing, \(outcome.created) created)")
    }

    /// Sets up every league that needs it (the one league of a single-league run, or each league with a writer), a
    /// few at once. - Returns: each league's plan, by league index; nil for a league without writers.
    func setUpLeagues(context: LoadContext, tag: String) async throws(LoadError) -> [SharedPlan?] {
        let shape = configuration.shape
        let leagues = configuration.leagues
        let slot = shape.subscribers + shape.writers
        guard leagues.count > 1 else {
            return [try await setUp(context: context, tag: tag, slot: slot, league: 0)]
        }
        let needed = (0..<leagues.count).filter { !leagues.members(ofLeague: $0, total: shape.writers).isEmpty }
        var plans = [SharedPlan?](repeating: nil, count: leagues.count)
        let outcome = await withTaskGroup(of: (Int, Result<SharedPlan, LoadError>).self) {
            group -> Result<[SharedPlan?], LoadError> in
            var next = 0
            var done = 0
            func add() {
                let league = needed[next]
                next += 1
                group.addTask {
                    do throws(LoadError) {
                        let plan = try await setUp(context: context, tag: tag, slot: slot, league: league)
                        return (league, .success(plan))
                    } catch {
                        return (league, .failure(error))
                    }
                }
            }
            while next < needed.count, next < Self.leagueConcurrency { add() }
            for await (league, result) in group {
                switch result {
                case .success(let plan):
                    plans[league] = plan
                case .failure(let error):
                    group.cancelAll()
                    return .failure(error)
                }
                done += 1
                if done % 100 == 0 { progress("setup: \(done)/\(needed.count) leagues") }
                if next < needed.count { add() }
            }
            return .success(plans)
        }
        return try outcome.get()
    }

    /// Every league's view on every node (`[league][node]`), a few leagues at once.
    func leagueViews(_ run: Run) async -> [[Result<ServerView, LoadError>]] {
        let leagues = configuration.leagues
        guard leagues.count > 1 else { return [await nodeViews(run, league: nil)] }
        var views = [[Result<ServerView, LoadError>]](repeating: [], count: leagues.count)
        await withTaskGroup(of: (Int, [Result<ServerView, LoadError>]).self) { group in
            var next = 0
            func add() {
                let league = next
                next += 1
                group.addTask { (league, await nodeViews(run, league: leagues.slug(league))) }
            }
            while next < leagues.count, next < Self.leagueConcurrency { add() }
            for await (league, result) in group {
                views[league] = result
                if next < leagues.count { add() }
            }
        }
        return views
    }
}
