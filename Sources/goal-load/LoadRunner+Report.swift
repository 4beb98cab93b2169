import Foundation
import GoalClient
import GoalModel
import GoalTransport
import Histogram

extension LoadRunner {
    /// Builds the report and the convergence verdict from the readings and the server's final view.
    func report(
        run: Run,
        start: Reading,
        end: Reading,
        connectSeconds: Double,
        writersReady: Int,
        views: [[Result<ServerView, LoadError>]],
        idle: (UInt64?, UInt64?)?,
        catchup: LoadReport.Catchup?,
        churnResumes: Int
    ) -> LoadReport {
        let shape = configuration.shape
        let seconds = max(MonotonicClock.seconds(from: start.time, to: end.time), 0.001)
        let final = totals(run.subscribers)
        let writers = writerTotals(run.writers)
        let latency = run.context.latency
        let deliveries = end.subscribers.deliveries - start.subscribers.deliveries
        var daemon: LoadReport.CPU?
        if let a = start.daemon, let b = end.daemon {
            let cpu = b.cpuSeconds - a.cpuSeconds
            daemon = LoadReport.CPU(
                seconds: cpu,
                percentOfCore: cpu / seconds * 100,
                rssBytes: b.rssBytes,
                microsecondsPerDelivery: deliveries > 0 ? cpu * 1e6 / Double(deliveries) : nil
            )
        }
        var idleReport: LoadReport.Idle?
        if let (before, after) = idle, let before, let after {
            idleReport = LoadReport.Idle(
                connections: final.connected,
                daemonRSSBeforeBytes: before,
                daemonRSSAfterBytes: after,
                bytesPerConnection: final.connected > 0 ? (Double(after) - Double(before)) / Double(final.connected) : 0
            )
        }
        let loadCPU = end.load.cpuSeconds - start.load.cpuSeconds
        let snapshots = run.subscribers.map { $0.snapshot() }
        let leagues = Self.leagues(
            configuration.leagues,
            subscribers: snapshots,
            writers: shape.writers,
            views: views
        )
        return LoadReport(
            setup: LoadReport.Setup(
                scenario: configuration.scenario?.rawValue ?? "custom",
                url: configuration.endpoints.map(\.description).joined(separator: ","),
                subscribers: shape.subscribers,
                writers: shape.writers,
                rate: shape.rate,
                arrivals: shape.arrivals.rawValue,
                window: shape.window,
                durationSeconds: shape.duration,
                mix: shape.mix.description,
                sampledSubscribers: run.subscribers.filter(\.sampled).count,
                threads: configuration.threads,
                protocolVersion: configuration.protocolVersion,
                deflate: configuration.permessageDeflate,
                openFileLimit: run.openFileLimit,
                loadAverage: Self.loadAverage()
            ),
            measuredSeconds: seconds,
            connections: LoadReport.Connections(
                subscribersConnected: final.connected,
                subscribersNeverConnected: shape.subscribers - final.connected,
                writersConnected: writersReady,
                failedAttempts: final.failedAttempts,
                subscriberReconnects: final.reconnects,
                writerReconnects: writers.reconnects,
                churnResumes: churnResumes,
                slowConsumerCloses: final.sheddings,
                connectSeconds: connectSeconds
            ),
            commits: LoadReport.Commits(
                sent: writers.sent,
                accepted: writers.accepted,
                acceptedPerSecond: Double(end.writers.accepted - start.writers.accepted) / seconds,
                noops: writers.noops,
                rejections: writers.rejections,
                rateLimited: writers.rateLimited,
                overloaded: writers.overloaded,
                unanswered: writers.unanswered,
                sentByKind: writers.sentByKind
            ),
            deliveries: LoadReport.Deliveries(
                total: deliveries,
                perSecond: Double(deliveries) / seconds,
                bytes: end.subscribers.bytes - start.subscribers.bytes,
                bytesPerSecond: Double(end.subscribers.bytes - start.subscribers.bytes) / seconds
            ),
            latency: Self.percentiles(latency.merged()),
            latencyByNode: run.context.serverCount < 2
                ? nil
                : LoadReport.LatencyByNode(
                    writersNode: Self.percentiles(latency.merged(.sameNode)),
                    otherNodes: Self.percentiles(latency.merged(.otherNode))
                ),
            loadProcess: LoadReport.CPU(
                seconds: loadCPU,
                percentOfCore: loadCPU / seconds * 100,
                rssBytes: end.load.rssBytes,
                microsecondsPerDelivery: nil
            ),
            daemon: daemon,
            idle: idleReport,
            catchup: catchup,
            convergence: leagues.map(LoadReport.combined)
                ?? Self.verdict(subscribers: snapshots, views: views.first ?? []),
            nodes: Self.nodes(
                urls: configuration.endpoints.map(\.description),
                subscribers: snapshots,
                writers: run.writers.map(\.server),
                views: views,
                leagueOf: configuration.leagues.league(ofSubscriber:)
            ),
            leagues: leagues
        )
    }

    static func loadAverage() -> String {
        // The load average is informational (Linux only): unreadable, the report shows none.
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }

    /// A histogram of microseconds as the report's milliseconds.
    private static func percentiles(_ histogram: Histogram<UInt64>) -> LoadReport.Latency {
        func ms(_ percentile: Double) -> Double { Double(histogram.valueAtPercentile(percentile)) / 1000 }
        return LoadReport.Latency(
            samples: histogram.totalCount,
            p50Milliseconds: ms(50),
            p90Milliseconds: ms(90),
            p99Milliseconds: ms(99),
            p999Milliseconds: ms(99.9),
            maxMilliseconds: Double(histogram.max) / 1000
        )
    }
}
