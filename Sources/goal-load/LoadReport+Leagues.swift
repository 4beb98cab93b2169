import GoalWire

/// The per-league part of a run with `--leagues`: each league's convergence, the totals over them, and how the
/// report shows them.
extension LoadReport {
    /// One league of the run: where connections went and its convergence proof (`LoadRunner.verdict` over its own
    /// subscribers and its own head on every node).
    struct League: Sendable, Equatable {
        /// The league's id.
        var id: String
        /// Subscribers following it.
        var subscribers: Int
        /// Writers writing to it.
        var writers: Int
        var convergence: Convergence
    }

    /// The leagues shown one by one in the text report at most (beyond, only the ones that did not converge).
    static let leagueLinesShown = 10

    /// The convergence of the whole run from each league's: every league converged; counts summed; `head` the
    /// highest league head and `headDigest` empty (each league has its own); the first problems, each naming its
    /// league.
    static func combined(_ leagues: [League]) -> Convergence {
        var total = Convergence(
            head: 0,
            headDigest: "",
            subscribersChecked: 0,
            subscribersAtHead: 0,
            digestMismatches: 0,
            streamProblems: 0,
            sampledReplicasChecked: 0,
            replicaMismatches: 0,
            converged: !leagues.isEmpty,
            problems: []
        )
        for league in leagues {
            let c = league.convergence
            total.head = max(total.head, c.head)
            total.subscribersChecked += c.subscribersChecked
            total.subscribersAtHead += c.subscribersAtHead
            total.digestMismatches += c.digestMismatches
            total.streamProblems += c.streamProblems
            total.sampledReplicasChecked += c.sampledReplicasChecked
            total.replicaMismatches += c.replicaMismatches
            total.converged = total.converged && c.converged
            for problem in c.problems where total.problems.count < 10 {
                total.problems.append("league \(league.id): \(problem)")
            }
        }
        return total
    }

    /// The text lines of the leagues and their convergence (replacing the single-league convergence line).
    func leagueLines(_ leagues: [League]) -> [String] {
        var lines: [String] = []
        let converged = leagues.filter(\.convergence.converged).count
        let first = leagues.first?.id ?? ""
        let last = leagues.last?.id ?? ""
        lines.append("leagues: \(leagues.count) (\(first) … \(last)), \(converged) converged")
        let shown =
            leagues.count <= Self.leagueLinesShown
            ? leagues : Array(leagues.filter { !$0.convergence.converged }.prefix(Self.leagueLinesShown))
        for league in shown {
            let c = league.convergence
            lines.append(
                "  league \(league.id): \(league.subscribers) subscribers, \(league.writers) writers, "
                    + "\(c.subscribersAtHead)/\(c.subscribersChecked) at head r\(c.head) \(c.headDigest.prefix(16))…, "
                    + (c.converged ? "OK" : "FAILED")
            )
        }
        let v = convergence
        lines.append(
            "convergence: \(v.converged ? "OK" : "FAILED") — \(converged)/\(leagues.count) leagues; "
                + "\(v.subscribersAtHead)/\(v.subscribersChecked) subscribers at their league's head, "
                + "\(v.digestMismatches) digest mismatches, \(v.streamProblems) stream problems, "
                + "\(v.sampledReplicasChecked - v.replicaMismatches)/\(v.sampledReplicasChecked) sampled replicas "
                + "equal their league's snapshot"
        )
        return lines
    }
}

extension LoadReport.League {
    /// The league in the `--json` report.
    var document: JSONDocument {
        .sortedObject([
            "id": .string(id), "subscribers": .int(subscribers), "writers": .int(writers),
            "convergence": convergence.document,
        ])
    }
}
