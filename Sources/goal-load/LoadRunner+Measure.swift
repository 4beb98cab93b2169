import Foundation
import GoalModel
import Histogram
import Synchronization

extension LoadRunner {
    /// Readings at one instant of the measured phase.
    struct Reading: Sendable {
        var time: UInt64
        var subscribers: SubscriberTotals
        var writers: WriterCounters
        var load: ProcessSample
        var daemon: ProcessSample?
    }

    func read(_ run: Run) -> Reading {
        Reading(
            time: MonotonicClock.nanoseconds(),
            subscribers: totals(run.subscribers),
            writers: writerTotals(run.writers),
            load: ProcessStats.current(),
            daemon: configuration.daemonPID.flatMap { ProcessStats.sample(pid: $0) }
        )
    }

    /// Connects, writes for the measured phase, drains, and proves convergence.
    func measure(_ run: Run) async throws(LoadError) -> LoadReport {
        let shape = configuration.shape
        let rssBefore = configuration.daemonPID.flatMap { ProcessStats.sample(pid: $0) }?.rssBytes
        let connectSeconds = await connectSubscribers(run)
        let writersReady = await connectWriters(run)
        progress(
            "connected: \(totals(run.subscribers).connected)/\(shape.subscribers) subscribers, "
                + "\(writersReady)/\(shape.writers) writers in \(LoadReport.number(connectSeconds)) s"
        )
        let lagging = shape.catchupChangesets > 0 ? run.subscribers.first : nil
        if let lagging {
            _ = await waitUntil(seconds: configuration.settleTimeout) { lagging.snapshot().phase == .live }
            lagging.disconnect()
        }
        let start = read(run)
        for writer in run.writers { writer.setSending(true) }
        var last = start
        var nextProgress = start.time + UInt64((configuration.progressInterval ?? 1e9) * 1e9)
        var nextChurn = start.time + UInt64(max(shape.churnInterval, 0.001) * 1e9)
        var churnCursor = 0
        var churnResumes = 0
        let deadline = start.time + UInt64(shape.duration * 1e9)
        while MonotonicClock.nanoseconds() < deadline {
            // Cancellation ends the run at the deadline check; the pause itself has nothing to report.
            try? await Task.sleep(for: .milliseconds(50))
            let now = MonotonicClock.nanoseconds()
            if let maxCommits = shape.maxCommits, writerTotals(run.writers).accepted >= maxCommits { break }
            if shape.churnInterval > 0, now >= nextChurn {
                churnCursor = churn(run, from: churnCursor, skip: lagging)
                churnResumes += max(1, Int(Double(run.subscribers.count) * shape.churnFraction))
                nextChurn = now + UInt64(shape.churnInterval * 1e9)
            }
            if configuration.progressInterval != nil, now >= nextProgress {
                let reading = read(run)
                progress(progressLine(run, start: start, last: last, now: reading))
                last = reading
                nextProgress = now + UInt64(configuration.progressInterval! * 1e9)
            }
        }
        for writer in run.writers { writer.setSending(false) }
        let end = read(run)
        _ = await waitUntil(seconds: configuration.settleTimeout) { run.writers.allSatisfy { $0.inFlight == 0 } }
        var catchup: LoadReport.Catchup?
        if let lagging {
            let from = lagging.snapshot().revision
            lagging.connect()
            _ = await waitUntil(seconds: configuration.settleTimeout * 4) { lagging.snapshot().catchUpSeconds != nil }
            let after = lagging.snapshot()
            if let seconds = after.catchUpSeconds {
                let count = after.revision - from
                catchup = LoadReport.Catchup(
                    changesets: count,
                    seconds: seconds,
                    changesetsPerSecond: seconds > 0 ? Double(count) / seconds : 0
                )
            }
        }
        let views = await leagueViews(run)
        // Each league's highest head; a failed read is reported by the verdict.
        let heads = views.map { league in league.compactMap { try? $0.get().head }.max() }
        if heads.contains(where: { $0 != nil }) {
            let leagues = configuration.leagues
            _ = await waitUntil(seconds: configuration.settleTimeout) {
                run.subscribers.enumerated().allSatisfy { index, subscriber in
                    guard let head = heads[leagues.league(ofSubscriber: index)] else { return true }
                    let snapshot = subscriber.snapshot()
                    return snapshot.revision >= head || !snapshot.everConnected
                }
            }
        }
        let idleEnd = configuration.daemonPID.flatMap { ProcessStats.sample(pid: $0) }
        run.context.running.store(false, ordering: .relaxed)
        return report(
            run: run,
            start: start,
            end: end,
            connectSeconds: connectSeconds,
            writersReady: writersReady,
            views: views,
            idle: shape.writers == 0 ? (rssBefore, idleEnd?.rssBytes) : nil,
            catchup: catchup,
            churnResumes: churnResumes
        )
    }

    /// Every node's view (head, digest, snapshot) of `league` (nil: the default league, named nowhere), in the order
    /// of the URLs. A node behind the others is read again
    /// until it reaches the highest head seen or the settle timeout passes (another node's commits reach it through
    /// the shared store a little later).
    func nodeViews(_ run: Run, league: LeagueSlug?) async -> [Result<ServerView, LoadError>] {
        let shape = configuration.shape
        let slot = shape.subscribers + shape.writers + 1
        var views: [Result<ServerView, LoadError>] = []
        for server in configuration.endpoints.indices {
            views.append(
                await ConvergenceProbe.fetch(
                    context: run.context,
                    slot: slot,
                    server: server,
                    league: league,
                    timeout: configuration.settleTimeout
                )
            )
        }
        guard views.count > 1 else { return views }
        let deadline = MonotonicClock.nanoseconds() + UInt64(configuration.settleTimeout * 1e9)
        while MonotonicClock.nanoseconds() < deadline {
            let heads = views.map { try? $0.get().head }  // nil: a failed read, reported by the verdict
            guard let highest = heads.compactMap({ $0 }).max() else { break }
            let behind = heads.indices.filter { (heads[$0] ?? highest) < highest }
            if behind.isEmpty { break }
            try? await Task.sleep(for: .milliseconds(200))  // a pause between reads; cancelled: read at once
            for server in behind {
                views[server] = await ConvergenceProbe.fetch(
                    context: run.context,
                    slot: slot,
                    server: server,
                    league: league,
                    timeout: configuration.settleTimeout
                )
            }
        }
        return views
    }

    /// Closes and resumes the next share of subscribers (never the lagging one). - Returns: the next cursor.
    private func churn(_ run: Run, from cursor: Int, skip: LoadSubscriber?) -> Int {
        let shape = configuration.shape
        let count = max(1, Int(Double(run.subscribers.count) * shape.churnFraction))
        var index = cursor
        for _ in 0..<count {
            let subscriber = run.subscribers[index % run.subscribers.count]
            index += 1
            if subscriber === skip { continue }
            subscriber.disconnect()
            subscriber.connect()
        }
        return index % max(1, run.subscribers.count)
    }

    private func progressLine(_ run: Run, start: Reading, last: Reading, now: Reading) -> String {
        let seconds = max(MonotonicClock.seconds(from: last.time, to: now.time), 0.001)
        let elapsed = MonotonicClock.seconds(from: start.time, to: now.time)
        let commits = Double(now.writers.accepted - last.writers.accepted) / seconds
        let deliveries = Double(now.subscribers.deliveries - last.subscribers.deliveries) / seconds
        let latency = LoadReport.ms(Double(run.context.latency.merged().valueAtPercentile(99)) / 1000)
        let rejected = now.writers.rejections.values.reduce(0, +)
        var line =
            "t=\(Int(elapsed.rounded()))s live \(now.subscribers.live)/\(configuration.shape.subscribers) "
            + "commits \(LoadReport.number(commits))/s deliveries \(LoadReport.number(deliveries))/s "
            + "p99 \(latency) rejected \(rejected) reconnects \(now.subscribers.reconnects)"
        let loadCPU = (now.load.cpuSeconds - last.load.cpuSeconds) / seconds * 100
        line += " cpu load \(Int(loadCPU))%"
        if let a = last.daemon, let b = now.daemon {
            line += " goald \(Int((b.cpuSeconds - a.cpuSeconds) / seconds * 100))%"
        }
        return line
    }
}
