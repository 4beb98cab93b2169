import GoalClient
import GoalModel

/// The convergence proof over one node or several nodes of one league, and the per-node counts of the report.
extension LoadRunner {
    /// The convergence proof for one node: every subscriber at the head with the head's digest, no gap or
    /// duplicate seen, and every sampled replica equal to the server's snapshot.
    static func verdict(
        subscribers: [SubscriberSnapshot],
        view: Result<ServerView, LoadError>
    ) -> LoadReport.Convergence {
        verdict(subscribers: subscribers, views: [view])
    }

    /// The convergence proof over every node (`views`, in the order of the URLs): every node read, all at one head
    /// with one digest, and every subscriber, whichever node it is on, at that head with that digest, no gap or
    /// duplicate seen, every sampled replica equal to the first node's snapshot. Problems name subscriber `i` as
    /// `numbers[i]` (their numbers in the whole run, when these are one league's), or `i`.
    static func verdict(
        subscribers: [SubscriberSnapshot],
        views: [Result<ServerView, LoadError>],
        numbers: [Int]? = nil
    ) -> LoadReport.Convergence {
        var problems: [String] = []
        var servers: [ServerView] = []
        for (index, view) in views.enumerated() {
            switch view {
            case .success(let fetched): servers.append(fetched)
            case .failure(let error):
                problems.append("cannot read the head of node \(index + 1) of \(views.count): \(error)")
            }
        }
        guard let server = servers.first, servers.count == views.count else {
            return LoadReport.Convergence(
                head: 0,
                headDigest: "",
                subscribersChecked: subscribers.count,
                subscribersAtHead: 0,
                digestMismatches: 0,
                streamProblems: 0,
                sampledReplicasChecked: 0,
                replicaMismatches: 0,
                converged: false,
                problems: problems.isEmpty ? ["no node to read the head from"] : problems
            )
        }
        var nodeMismatches = 0
        for (index, other) in servers.enumerated().dropFirst()
        where other.head != server.head || other.headDigest != server.headDigest || other.epoch != server.epoch {
            nodeMismatches += 1
            problems.append(
                "node \(index + 1) is at r\(other.head) \(other.headDigest.description.prefix(16))…, node 1 at "
                    + "r\(server.head) \(server.headDigest.description.prefix(16))…"
            )
        }
        let expected = server.snapshot.map { ReplicaState($0) }
        var atHead = 0
        var mismatches = 0
        var streamProblems = 0
        var replicas = 0
        var replicaMismatches = 0
        for (position, s) in subscribers.enumerated() {
            let index = numbers.map { position < $0.count ? $0[position] : position } ?? position
            streamProblems += s.problemCount
            for problem in s.problems where problems.count < 10 { problems.append("subscriber \(index): \(problem)") }
            guard s.everConnected else {
                mismatches += 1
                if problems.count < 10 { problems.append("subscriber \(index) never connected") }
                continue
            }
            if s.revision == server.head {
                atHead += 1
                if s.digest != server.headDigest {
                    mismatches += 1
                    if problems.count < 10 { problems.append("subscriber \(index): digest at head differs") }
                }
            } else {
                mismatches += 1
                if problems.count < 10 {
                    problems.append("subscriber \(index) stopped at revision \(s.revision), head is \(server.head)")
                }
            }
            if let replica = s.replica, let expected {
                replicas += 1
                if replica != expected {
                    replicaMismatches += 1
                    if problems.count < 10 {
                        problems.append("sampled subscriber \(index): replica differs from the server's snapshot")
                    }
                }
            }
        }
        return LoadReport.Convergence(
            head: server.head,
            headDigest: server.headDigest.description,
            subscribersChecked: subscribers.count,
            subscribersAtHead: atHead,
            digestMismatches: mismatches + nodeMismatches,
            streamProblems: streamProblems,
            sampledReplicasChecked: replicas,
            replicaMismatches: replicaMismatches,
            converged: mismatches == 0 && nodeMismatches == 0 && streamProblems == 0 && replicaMismatches == 0,
            problems: Array(problems.prefix(10))
        )
    }

    /// Per node (one per URL, in order): the subscribers and writers that ended on it, how many
    /// of those subscribers hold its head, and its head and digest as read at the end (one league).
    static func nodes(
        urls: [String],
        subscribers: [SubscriberSnapshot],
        writers: [Int],
        views: [Result<ServerView, LoadError>]
    ) -> [LoadReport.Node] {
        nodes(urls: urls, subscribers: subscribers, writers: writers, views: [views]) { _ in 0 }
    }

    /// Per node (one per URL, in order) over several leagues (`views[league][node]`): the subscribers and writers
    /// that ended on it, how many of those subscribers hold their own league's head and digest there, and, with
    /// one league, its head and digest as read at the end (nil with several: each league has its own).
    static func nodes(
        urls: [String],
        subscribers: [SubscriberSnapshot],
        writers: [Int],
        views: [[Result<ServerView, LoadError>]],
        leagueOf: (Int) -> Int
    ) -> [LoadReport.Node] {
        // nil: the read failed, and the verdict names the failure.
        func view(league: Int, node: Int) -> ServerView? {
            guard league < views.count, node < views[league].count else { return nil }
            return try? views[league][node].get()
        }
        return urls.enumerated().map { index, url in
            var own = 0
            var atHead = 0
            for (subscriberIndex, s) in subscribers.enumerated() where s.server == index {
                own += 1
                if let view = view(league: leagueOf(subscriberIndex), node: index), s.revision == view.head,
                    s.digest == view.headDigest
                {
                    atHead += 1
                }
            }
            let single = views.count == 1 ? view(league: 0, node: index) : nil
            return LoadReport.Node(
                url: url,
                subscribers: own,
                writers: writers.filter { $0 == index }.count,
                subscribersAtHead: atHead,
                head: single?.head,
                headDigest: single?.headDigest.description
            )
        }
    }

    /// Each league's convergence (`verdict` over its own subscribers and its own views), when the run names
    /// leagues; nil for the default league alone.
    static func leagues(
        _ spread: LeagueSpread,
        subscribers: [SubscriberSnapshot],
        writers: Int,
        views: [[Result<ServerView, LoadError>]]
    ) -> [LoadReport.League]? {
        guard spread.namesLeagues else { return nil }
        return (0..<spread.count).map { league in
            let numbers = spread.members(ofLeague: league, total: subscribers.count)
            return LoadReport.League(
                id: spread.name(league),
                subscribers: numbers.count,
                writers: spread.members(ofLeague: league, total: writers).count,
                convergence: verdict(
                    subscribers: numbers.map { subscribers[$0] },
                    views: league < views.count ? views[league] : [],
                    numbers: numbers
                )
            )
        }
    }
}
