import ArgumentParser
import GoalClient
import GoalModel
import GoalWire

/// `goal-microbench decode-apply`: the client's whole per-changeset work on a big replica (issue 17 point 6).
///
/// Setup (not timed): a league of `--players` players and `--matches` matches built through `ConflictEngine`, the
/// replica that holds it, then `--changesets` one-goal commits (`adjust_goals` on random matches, each with the
/// match and its players' ratings) framed with `ChangesetFrame` exactly as goald writes them.
///
/// Figures (median of `--runs`), changesets/s:
/// - decode: `ServerMessage.decodeWithPayload` of every frame, as `GoalClient` decodes;
/// - decode + apply: decode, then `ReplicaState.apply` with the frame's payload (digest chain verified by hashing
///   the frame's own bytes) on a uniquely held replica;
/// - decode + apply + publish: the same, keeping a copy of the replica after every changeset as `GoalClient` does
///   when it publishes `replica` (a replica whose maps are copied on write pays for the whole league here).
///
/// With `--lean`, the same commits as protocol 2 sends them live (`delta` frames): decode, then expand against the
/// replica (`ReplicaState.expand`) and apply (the digest checked by re-encoding the expanded changeset).
struct DecodeApplyBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode-apply",
        abstract: "Changesets/s decoded and applied on a replica of 10,000 matches and 1,000 players."
    )

    @Option(help: "Players in the league.")
    var players: Int = 1_000

    @Option(help: "Matches in the league.")
    var matches: Int = 10_000

    @Option(help: "One-goal changesets decoded and applied per run.")
    var changesets: Int = 100_000

    @Option(help: "Runs; the median is printed.")
    var runs: Int = 3

    @Flag(help: "Decode the commits as protocol 2's lean delta frames (expanded against the replica).")
    var lean = false

    func validate() throws {
        guard players >= 4, matches > 0, changesets > 0, runs > 0 else {
            throw ValidationError("players ≥ 4, matches > 0, changesets > 0, runs > 0")
        }
    }

    func run() throws {
        print(
            "swift run -c release --package-path Benchmarks goal-microbench decode-apply --players \(players) "
                + "--matches \(matches) --changesets \(changesets) --runs \(runs)" + (lean ? " --lean" : "")
        )
        let league = GoalLeague(players: players, matches: matches, goals: changesets)
        var base = ReplicaState()
        for changeset in league.setup { try base.apply(changeset) }
        print(
            "replica: \(base.players.count) players, \(base.matches.count) matches at revision \(base.revision); "
                + "\(league.frames.count) frames, \(frames(league).map(\.count).reduce(0, +) / league.frames.count) "
                + "bytes each on average"
        )
        let decodeRates = try (0..<runs).map { _ in try measure(league, base: base, apply: false, publish: false) }
        print("decode:                   " + BenchFormat.rates(decodeRates, unit: "changesets/s"))
        let applyRates = try (0..<runs).map { _ in try measure(league, base: base, apply: true, publish: false) }
        print("decode + apply:           " + BenchFormat.rates(applyRates, unit: "changesets/s"))
        let publishRates = try (0..<runs).map { _ in try measure(league, base: base, apply: true, publish: true) }
        print("decode + apply + publish: " + BenchFormat.rates(publishRates, unit: "changesets/s"))
    }

    private func measure(_ league: GoalLeague, base: ReplicaState, apply: Bool, publish: Bool) throws -> Double {
        var replica = base
        var published = base
        var sink = 0
        let start = ContinuousClock.now
        for frame in frames(league) {
            let (message, payload) = try ServerMessage.decodeWithPayload(frame)
            switch message {
            case .changeset(let changeset):
                sink &+= changeset.changes.count
                guard apply else { continue }
                try replica.apply(changeset, payload: payload)
            case .delta(let delta):
                sink &+= delta.changes.count
                guard apply else { continue }
                try replica.apply(try replica.expand(delta))
            default:
                throw ValidationError("a frame did not decode as a changeset or a delta")
            }
            if publish { published = replica }
        }
        let seconds = BenchFormat.seconds(ContinuousClock.now - start)
        if apply { precondition(replica.digest == league.digest, "the replica did not converge") }
        precondition(sink > 0 && published.revision >= base.revision)
        return Double(league.frames.count) / seconds
    }

    private func frames(_ league: GoalLeague) -> [[UInt8]] { lean ? league.leanFrames : league.frames }
}

/// A league built through the conflict engine, then one-goal commits on it as goald frames them.
struct GoalLeague {
    /// The players' and matches' creations, with chained digests.
    private(set) var setup: [Changeset] = []
    /// The one-goal commits' frames, continuing `setup`'s chain.
    private(set) var frames: [[UInt8]] = []
    /// The same commits as protocol 2's `delta` frames.
    private(set) var leanFrames: [[UInt8]] = []
    /// The chain's last digest.
    private(set) var digest = Digest.genesis

    init(players: Int, matches: Int, goals: Int) {
        let instance = ClientInstanceID("bench-decode-apply")!
        var state = LeagueState()
        var seq: UInt64 = 0
        var random = SplitMix(state: 17)
        var playerIDs: [PlayerID] = []
        var matchIDs: [MatchID] = []
        while frames.count < goals {
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
            } else {
                let match = matchIDs[Int(random.next() % UInt64(matchIDs.count))]
                action = .adjustGoals(id: match, side: random.next() % 2 == 0 ? .home : .away, delta: 1)
            }
            seq += 1
            let mutation = Mutation(id: MutationID(instance: instance, seq: seq), base: state.revision, action: action)
            guard case .commit(let commit) = ConflictEngine.apply(mutation, author: "bench", to: &state) else {
                continue  // a goal count at 999: no changeset
            }
            let time = Timestamp(millisecondsSince1970: 1_767_225_600_000 + Int64(commit.revision))
            let frame = ChangesetFrame.encode(commit.changeset(time: time, digest: .genesis), previousDigest: digest)
            digest = frame.digest
            if case .adjustGoals = action {
                frames.append(frame.bytes)
                if let delta = ChangesetDelta(commit.changeset(time: time, digest: frame.digest)) {
                    leanFrames.append(DeltaFrame.encode(delta))
                }
            } else {
                setup.append(commit.changeset(time: time, digest: frame.digest))
            }
        }
    }
}
