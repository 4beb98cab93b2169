import Foundation

extension LoadReport {
    /// The report for a person: one topic per line.
    var text: String {
        var lines: [String] = []
        let s = setup
        lines.append(
            "goal-load \(s.scenario): \(s.subscribers) subscribers, \(s.writers) writers, "
                + "rate \(s.rate > 0 ? "\(Self.number(s.rate))/s" : "flat out")"
                + "\(s.rate > 0 && s.arrivals != Arrivals.even.rawValue ? " (\(s.arrivals) arrivals)" : "") window \(s.window), "
                + "\(Self.number(s.durationSeconds)) s, mix \(s.mix), protocol \(s.protocolVersion)"
                + "\(s.deflate ? " with deflate" : ""), \(s.threads) threads, open-file limit \(s.openFileLimit), load "
                + "\(s.loadAverage)"
        )
        let c = connections
        lines.append(
            "connections: \(c.subscribersConnected) subscribers + \(c.writersConnected) writers established in "
                + "\(Self.number(c.connectSeconds)) s, \(c.subscribersNeverConnected) never connected, "
                + "\(c.failedAttempts) failed attempts, reconnects \(c.subscriberReconnects) subscriber / "
                + "\(c.writerReconnects) writer, \(c.churnResumes) churn resumes, \(c.slowConsumerCloses) slow-consumer/shedding closes"
        )
        let m = commits
        let rejected = m.rejections.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        lines.append(
            "commits: \(m.accepted) accepted (\(Self.number(m.acceptedPerSecond))/s over "
                + "\(Self.number(measuredSeconds)) s) of \(m.sent) sent, \(m.noops) noop, rejected: "
                + "\(rejected.isEmpty ? "none" : rejected), rate_limited \(m.rateLimited), overloaded \(m.overloaded), "
                + "unanswered \(m.unanswered)"
        )
        let d = deliveries
        lines.append(
            "deliveries: \(d.total) (\(Self.number(d.perSecond))/s), \(Self.bytes(Double(d.bytes))) "
                + "(\(Self.bytes(d.bytesPerSecond))/s)"
        )
        let l = latency
        lines.append(
            "latency commit→delivery (\(l.samples) samples): p50 \(Self.ms(l.p50Milliseconds)) "
                + "p90 \(Self.ms(l.p90Milliseconds)) p99 \(Self.ms(l.p99Milliseconds)) "
                + "p99.9 \(Self.ms(l.p999Milliseconds)) max \(Self.ms(l.maxMilliseconds))"
        )
        if let byNode = latencyByNode {
            let (own, other) = (byNode.writersNode, byNode.otherNodes)
            lines.append(
                "  on the writer's node (\(own.samples)): p50 \(Self.ms(own.p50Milliseconds)) "
                    + "p99 \(Self.ms(own.p99Milliseconds)); on another node (\(other.samples)): "
                    + "p50 \(Self.ms(other.p50Milliseconds)) p99 \(Self.ms(other.p99Milliseconds))"
            )
        }
        lines.append(
            "goal-load CPU: \(Self.number(loadProcess.seconds)) s (\(Self.number(loadProcess.percentOfCore))% of a core), "
                + "RSS \(Self.bytes(Double(loadProcess.rssBytes)))"
        )
        if loadProcess.isAtLoadGeneratorLimit {
            lines.append(
                "  note: goal-load used \(Self.number(CPU.loadGeneratorLimitPercent))% of a core or more, so these "
                    + "figures may be bounded by goal-load itself: split the subscribers over two goal-load "
                    + "processes, or use --sampled 0"
            )
        }
        if let daemon {
            let perDelivery = daemon.microsecondsPerDelivery.map { ", \(Self.number($0)) µs per delivery" } ?? ""
            lines.append(
                "goald CPU: \(Self.number(daemon.seconds)) s (\(Self.number(daemon.percentOfCore))% of a core)"
                    + "\(perDelivery), RSS \(Self.bytes(Double(daemon.rssBytes)))"
            )
        }
        if let idle {
            lines.append(
                "idle: \(idle.connections) connections, goald RSS \(Self.bytes(Double(idle.daemonRSSBeforeBytes))) → "
                    + "\(Self.bytes(Double(idle.daemonRSSAfterBytes))): \(Self.bytes(idle.bytesPerConnection)) per connection"
            )
        }
        if let catchup {
            lines.append(
                "catchup: \(catchup.changesets) changesets in \(Self.number(catchup.seconds)) s "
                    + "(\(Self.number(catchup.changesetsPerSecond))/s)"
            )
        }
        if nodes.count > 1 {
            for node in nodes {
                let head = node.head.map { "r\($0) \(node.headDigest?.prefix(16) ?? "")…" } ?? "unread"
                lines.append(
                    "node \(node.url): \(node.subscribers) subscribers, \(node.writers) writers, "
                        + "\(node.subscribersAtHead)/\(node.subscribers) subscribers at its head \(head)"
                )
            }
        }
        if let leagues {
            lines += leagueLines(leagues)
            for problem in convergence.problems { lines.append("  problem: \(problem)") }
            return lines.joined(separator: "\n")
        }
        let v = convergence
        lines.append(
            "convergence: \(v.converged ? "OK" : "FAILED") — head \(v.head) digest \(v.headDigest.prefix(16))…; "
                + "\(v.subscribersAtHead)/\(v.subscribersChecked) subscribers at head, \(v.digestMismatches) digest "
                + "mismatches, \(v.streamProblems) stream problems, \(v.sampledReplicasChecked - v.replicaMismatches)/"
                + "\(v.sampledReplicasChecked) sampled replicas equal the server's snapshot"
        )
        for problem in v.problems { lines.append("  problem: \(problem)") }
        return lines.joined(separator: "\n")
    }

    static func number(_ value: Double) -> String {
        if value >= 100 || value == value.rounded() { return String(Int(value.rounded())) }
        return String(format: value >= 10 ? "%.1f" : "%.2f", value)
    }

    static func ms(_ value: Double) -> String {
        String(format: value < 10 ? "%.2f ms" : "%.1f ms", value)
    }

    static func bytes(_ value: Double) -> String {
        if value >= 1_048_576 { return String(format: "%.1f MiB", value / 1_048_576) }
        if value >= 1024 { return String(format: "%.1f KiB", value / 1024) }
        return "\(Int(value)) B"
    }
}
