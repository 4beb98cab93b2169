import ArgumentParser
import GoalClient
import GoalModel
import GoalWire

/// `goal-microbench replica`: how fast a GoalClient replica applies changesets, and what the match list's
/// `RowChanges` cost on a 10,000-match replica.
///
/// Setup (not timed): a league is built through `ConflictEngine` — `--players` players, `--matches` matches,
/// then increments and absolute updates until `--changesets` commits — and every commit is framed with
/// `ChangesetFrame` (chained digest), exactly as goald sends it.
///
/// Figures (median of `--runs`):
/// - apply: `ReplicaState.apply` of every changeset into a fresh replica (digest chain verified), changesets/s;
/// - decode + apply: the same from the frame bytes (`ServerMessage.decode` first), which is the client's whole
///   per-message work on its scheduler;
/// - match list on the replica after the match creations: building the rows ("A, B", "2 : 1", newest first) and
///   diffing them for the first load (every row inserted), an unchanged refresh, one changed result, one new
///   match on top and a rename shown in many rows; "rows + diff" is what one live changeset costs the list.
struct ReplicaBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replica",
        abstract: "Replica apply rate (changesets/s) and match-list RowChanges on 10,000 matches."
    )

    @Option(help: "Players in the league.")
    var players: Int = 200

    @Option(help: "Matches created (the size of the match list).")
    var matches: Int = 10_000

    @Option(help: "Changesets in all (players + matches + updates).")
    var changesets: Int = 100_000

    @Option(help: "Runs; the median is printed.")
    var runs: Int = 3

    func validate() throws {
        guard players >= 4, matches > 0, changesets >= players + matches + 3, runs > 0 else {
            throw ValidationError("players ≥ 4, matches > 0, changesets ≥ players + matches + 3, runs > 0")
        }
    }

    func run() throws {
        print("swift run -c release --package-path Benchmarks goal-microbench replica (median of \(runs))")
        let history = ReplicaHistory(players: players, matches: matches, total: changesets)
        print("history: \(players) players, \(matches) matches, \(history.changesets.count) changesets")

        let applyRates = try (0..<runs).map { _ in try measureApply(history) }
        print("apply:          " + BenchFormat.rates(applyRates, unit: "changesets/s"))
        let decodeRates = try (0..<runs).map { _ in try measureDecodeAndApply(history) }
        print("decode + apply: " + BenchFormat.rates(decodeRates, unit: "changesets/s"))

        var replica = ReplicaState()
        for changeset in history.changesets.prefix(players + matches) { try replica.apply(changeset) }
        let live = Array(history.changesets[(players + matches)..<(players + matches + 3)])
        try MatchListBenchmark(replica: replica, live: live, runs: runs).run()
    }

    private func measureApply(_ history: ReplicaHistory) throws -> Double {
        var replica = ReplicaState()
        let start = ContinuousClock.now
        for changeset in history.changesets { try replica.apply(changeset) }
        let seconds = BenchFormat.seconds(ContinuousClock.now - start)
        precondition(replica.digest == history.digest, "the replica did not converge")
        return Double(history.changesets.count) / seconds
    }

    private func measureDecodeAndApply(_ history: ReplicaHistory) throws -> Double {
        var replica = ReplicaState()
        let start = ContinuousClock.now
        for frame in history.frames {
            guard case .changeset(let changeset) = try ServerMessage.decode(frame) else {
                throw ValidationError("a frame did not decode as a changeset")
            }
            try replica.apply(changeset)
        }
        let seconds = BenchFormat.seconds(ContinuousClock.now - start)
        precondition(replica.digest == history.digest, "the replica did not converge")
        return Double(history.frames.count) / seconds
    }
}

/// A league's history as goald would send it: changesets with chained digests and their frame bytes.
struct ReplicaHistory {
    private(set) var changesets: [Changeset] = []
    private(set) var frames: [[UInt8]] = []
    private(set) var digest = Digest.genesis

    init(players: Int, matches: Int, total: Int) {
        let instance = ClientInstanceID("bench-replica")!
        var state = LeagueState()
        var seq: UInt64 = 0
        var random = SplitMix(state: 11)
        var playerIDs: [PlayerID] = []
        var matchIDs: [MatchID] = []
        changesets.reserveCapacity(total)
        frames.reserveCapacity(total)
        while changesets.count < total {
            let action: MutationAction
            if playerIDs.count < players {
                let id = PlayerID()
                playerIDs.append(id)
                action = .createPlayer(id: id, name: "Player \(playerIDs.count)")
            } else if matchIDs.count < matches {
                let id = MatchID()
                matchIDs.append(id)
                let picks = random.distinct(4, below: players)
                action = .createMatch(
                    id: id,
                    homePlayers: [playerIDs[picks[0]], playerIDs[picks[1]]],
                    awayPlayers: [playerIDs[picks[2]], playerIDs[picks[3]]],
                    homeGoals: Int(random.next() % 10),
                    awayGoals: Int(random.next() % 10)
                )
            } else if let special = ReplicaHistory.liveSteps(
                after: changesets.count - players - matches,
                playerIDs,
                matchIDs
            ) {
                action = special
            } else {
                let match = matchIDs[Int(random.next() % UInt64(matchIDs.count))]
                let goals = Int(random.next() % 10)
                action =
                    random.next() % 2 == 0
                    ? .adjustGoals(id: match, side: .home, delta: 1)
                    : .updateMatch(id: match, MatchUpdate(awayGoals: goals))
            }
            seq += 1
            let mutation = Mutation(id: MutationID(instance: instance, seq: seq), base: state.revision, action: action)
            guard case .commit(let commit) = ConflictEngine.apply(mutation, author: "bench", to: &state) else {
                continue  // a noop (same value) or a goal count at 999: no changeset
            }
            let time = Timestamp(millisecondsSince1970: 1_767_225_600_000 + Int64(commit.revision))
            let frame = ChangesetFrame.encode(commit.changeset(time: time, digest: .genesis), previousDigest: digest)
            digest = frame.digest
            changesets.append(commit.changeset(time: time, digest: frame.digest))
            frames.append(frame.bytes)
        }
    }
}

extension ReplicaHistory {
    /// The live changesets the match-list benchmark replays, right after the match creations: one result
    /// changed (an increment of the newest match), one new match, one rename of the first player.
    static let liveStepNames = ["one result changed", "one new match on top", "one player renamed"]

    fileprivate static func liveSteps(after step: Int, _ players: [PlayerID], _ matches: [MatchID]) -> MutationAction? {
        switch step {
        case 0: .adjustGoals(id: matches[matches.count - 1], side: .home, delta: 1)
        case 1:
            .createMatch(
                id: MatchID(),
                homePlayers: [players[0]],
                awayPlayers: [players[1]],
                homeGoals: 1,
                awayGoals: 0
            )
        case 2: .renamePlayer(id: players[0], name: "Renamed Player")
        default: nil
        }
    }
}

/// SplitMix64, so every run builds the same history.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `count` distinct numbers below `bound`.
    mutating func distinct(_ count: Int, below bound: Int) -> [Int] {
        var picked: [Int] = []
        while picked.count < count {
            let value = Int(next() % UInt64(bound))
            if !picked.contains(value) { picked.append(value) }
        }
        return picked
    }
}

/// Shared formatting of figures.
enum BenchFormat {
    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }

    static func milliseconds(_ duration: Duration) -> Double { seconds(duration) * 1_000 }

    /// "runs: a, b, c unit; median m unit".
    static func rates(_ values: [Double], unit: String) -> String {
        let sorted = values.sorted()
        return "median \(Int(sorted[sorted.count / 2])) \(unit)  (runs: "
            + values.map { "\(Int($0))" }.joined(separator: ", ") + ")"
    }

    /// Two decimals.
    static func decimals(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
