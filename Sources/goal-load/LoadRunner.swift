import Foundation
import GoalModel
import GoalTransport
import NIOCore
import NIOPosix
import Synchronization

/// Runs one load: setup, connect subscribers and writers, the measured phase, then the convergence proof.
///
/// With several URLs (the nodes of one league) the setup runs on the first, subscribers and writers are spread
/// over all of them round robin, and the proof reads every node's head: all must agree, and every subscriber must
/// hold that head's digest.
///
/// Threading: `run()` is one async task; connections live on the event loops of the runner's own group and are
/// read through their mutexes. Lifetime: one run per value; the group is shut down before `run()` returns.
struct LoadRunner: Sendable {
    let configuration: LoadConfiguration
    /// Receives progress lines (the command prints them to standard error).
    let progress: @Sendable (String) -> Void

    /// Everything the phases share.
    final class Run: Sendable {
        let context: LoadContext
        let subscribers: [LoadSubscriber]
        let writers: [LoadWriter]
        let openFileLimit: UInt64

        init(context: LoadContext, subscribers: [LoadSubscriber], writers: [LoadWriter], openFileLimit: UInt64) {
            self.context = context
            self.subscribers = subscribers
            self.writers = writers
            self.openFileLimit = openFileLimit
        }
    }

    /// Runs the load and returns the report (convergence failures are in the report, not thrown).
    /// - Throws: `LoadError` when the run cannot start (file limit, TLS material, no daemon, setup refused).
    func run() async throws(LoadError) -> LoadReport {
        let shape = configuration.shape
        let openFileLimit = FileLimit.raise()
        let needed = UInt64(shape.subscribers + shape.writers + 16)
        progress("goal-load: open-file limit \(openFileLimit), \(needed) descriptors needed")
        if openFileLimit > 0, needed > openFileLimit {
            throw .usage(
                "\(shape.subscribers + shape.writers) connections need \(needed) open files but the limit is "
                    + "\(openFileLimit): raise it (ulimit -n) or use fewer subscribers"
            )
        }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: max(1, configuration.threads))
        do {
            let report = try await run(group: group, openFileLimit: openFileLimit)
            // The report is complete; a failure to stop the loops cannot change it.
            try? await group.shutdownGracefully()
            return report
        } catch {
            // The run's own error is the one to report, not a shutdown error.
            try? await group.shutdownGracefully()
            throw error
        }
    }

    private func run(group: MultiThreadedEventLoopGroup, openFileLimit: UInt64) async throws(LoadError) -> LoadReport {
        let shape = configuration.shape
        let transport: WebSocketTransport
        do {
            transport = try WebSocketTransport(
                endpoints: configuration.endpoints,
                security: configuration.security,
                group: group,
                configuration: WebSocketTransportConfiguration.default.with {
                    $0.permessageDeflate = configuration.permessageDeflate
                }
            )
        } catch {
            throw .connect("cannot set up TLS: \(error)")
        }
        let tag = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        let context = LoadContext(
            transport: transport,
            token: configuration.token,
            sendTimes: SendTimeDirectory(
                prefix: "load-\(tag)-w",
                writers: shape.writers,
                server: configuration.server(forWriter:)
            ),
            latency: LatencyRecorder(),
            addresses: SourceAddresses(
                endpoints: configuration.endpoints,
                perAddress: configuration.connectionsPerAddress
            ),
            protocolVersion: configuration.protocolVersion,
            group: group
        )
        let leagues = configuration.leagues
        if leagues.namesLeagues { try await provisionLeagues(group: group) }
        let plans = try await setUpLeagues(context: context, tag: tag)
        let sampledEvery = shape.sampled > 0 ? max(1, shape.subscribers / shape.sampled) : Int.max
        let subscribers = (0..<shape.subscribers).map { index in
            LoadSubscriber(
                index: index,
                sampled: index % sampledEvery == 0 && index / sampledEvery < shape.sampled,
                context: context,
                server: configuration.server(forSubscriber: index),
                league: leagues.slug(leagues.league(ofSubscriber: index))
            )
        }
        let perWriterRate = shape.rate > 0 && shape.writers > 0 ? shape.rate / Double(shape.writers) : 0
        let writers = (0..<shape.writers).map { index in
            let league = leagues.league(ofWriter: index)
            // Every league with a writer was set up (`setUpLeagues`).
            var writerPlan = plans[league] ?? SharedPlan(plan: WriterPlan(), ownPlayers: [])
            let own = index / leagues.count
            writerPlan.plan.ownPlayer = own < writerPlan.ownPlayers.count ? writerPlan.ownPlayers[own] : nil
            return LoadWriter(
                index: index,
                slot: shape.subscribers + index,
                instance: ClientInstanceID(context.sendTimes.instanceName(writer: index))!,
                context: context,
                window: shape.window,
                rate: perWriterRate,
                source: MutationSource(plan: writerPlan.plan, writerIndex: index),
                sendTimes: context.sendTimes.times(writer: index),
                arrivals: shape.arrivals,
                phase: Double(index) / Double(shape.writers),
                server: configuration.server(forWriter: index),
                league: leagues.slug(league)
            )
        }
        let run = Run(context: context, subscribers: subscribers, writers: writers, openFileLimit: openFileLimit)
        defer {
            context.running.store(false, ordering: .relaxed)
            for subscriber in subscribers { subscriber.disconnect() }
            for writer in writers { writer.disconnect() }
        }
        return try await measure(run)
    }

    /// The plan every writer shares, plus each writer's own player.
    struct SharedPlan: Sendable {
        var plan: WriterPlan
        var ownPlayers: [PlayerID]
    }

    /// Creates the pool players, one player per writer of the league and the target matches, through one setup
    /// connection to league `league`.
    func setUp(context: LoadContext, tag: String, slot: Int, league: Int) async throws(LoadError) -> SharedPlan {
        let shape = configuration.shape
        let leagues = configuration.leagues
        let writerCount = leagues.members(ofLeague: league, total: shape.writers).count
        let players = (0..<max(2, shape.players)).map { _ in PlayerID() }
        let own = (0..<writerCount).map { _ in PlayerID() }
        let matchCount = shape.contendedMatches > 0 ? shape.contendedMatches : shape.matches
        let matches = (0..<max(1, matchCount)).map { _ in MatchID() }
        var script: [MutationAction] = []
        for (index, id) in players.enumerated() { script.append(.createPlayer(id: id, name: "load-\(tag)-p\(index)")) }
        for (index, id) in own.enumerated() { script.append(.createPlayer(id: id, name: "load-\(tag)-w\(index)")) }
        for (index, id) in matches.enumerated() {
            script.append(
                .createMatch(
                    id: id,
                    homePlayers: [players[index % players.count]],
                    awayPlayers: [players[(index + 1) % players.count]],
                    homeGoals: 500,
                    awayGoals: 500
                )
            )
        }
        let setupNode = configuration.server(forSetupOf: league)
        let writer = LoadWriter(
            index: -1,
            slot: slot,
            instance: ClientInstanceID("load-\(tag)-setup" + (leagues.namesLeagues ? "-\(league)" : ""))!,
            context: context,
            window: 32,
            rate: 0,
            source: MutationSource(plan: WriterPlan(), writerIndex: 0),
            sendTimes: nil,
            server: setupNode,
            league: leagues.slug(league)
        )
        defer { writer.disconnect() }
        writer.connect()
        let inLeague = leagues.namesLeagues ? " in league \(leagues.name(league))" : ""
        guard await waitUntil(seconds: 15, { writer.isReady }) else {
            throw .connect(
                "goald at \(configuration.endpoints[setupNode]) did not welcome the setup connection\(inLeague) within 15 s: is it "
                    + "running, does --ca-file match its tls/ca.pem, is the token an editor's"
                    + (leagues.namesLeagues ? " in every league?" : "?")
            )
        }
        writer.run(script: script)
        guard await waitUntil(seconds: 60, { writer.scriptDone }) else {
            throw .connect(
                "setup\(inLeague) did not finish within 60 s (\(writer.counters.accepted) of \(script.count) accepted)"
            )
        }
        let counters = writer.counters
        guard counters.accepted == script.count else {
            throw .connect(
                "setup\(inLeague) was refused: \(counters.accepted) of \(script.count) accepted, rejections \(counters.rejections), "
                    + "rate_limited \(counters.rateLimited): the token must be an editor's"
            )
        }
        let plan = WriterPlan(
            players: players,
            matches: matches,
            ownPlayer: nil,
            setupRevision: writer.knownRevision,
            mix: shape.mix,
            tag: tag
        )
        return SharedPlan(plan: plan, ownPlayers: own)
    }

    /// Polls `condition` every 20 ms until it holds or `seconds` pass. - Returns: whether it held.
    func waitUntil(seconds: Double, _ condition: () -> Bool) async -> Bool {
        let deadline = MonotonicClock.nanoseconds() + UInt64(seconds * 1e9)
        while true {
            if condition() { return true }
            if MonotonicClock.nanoseconds() >= deadline { return false }
            // Cancellation ends the wait at the next deadline check; the pause itself has nothing to report.
            try? await Task.sleep(for: .milliseconds(20))
        }
    }
}
