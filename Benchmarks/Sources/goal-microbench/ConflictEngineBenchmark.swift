import ArgumentParser
import Foundation
import GoalModel

/// `goal-microbench conflict-engine`: mutations per second through `ConflictEngine.apply` on a big league.
///
/// Builds a league of `--players` players and `--matches` matches (2–4 players each, rebuilt through
/// `LeagueState(revision:players:matches:clientRecords:)`), pre-generates `--mutations` mixed mutations from
/// `--clients` client instances (increments, absolute sets, roster changes, creates, deletes, renames, player
/// creates, retries and a share of stale bases, so conflicts, noops and rejections all occur), then applies
/// them to a fresh copy of the league `--runs` times and prints the median rate. Generation is not timed. Every id
/// comes from the seeded generator, so every invocation measures the identical workload (same decision tally).
struct ConflictEngineBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conflict-engine",
        abstract: "Apply mixed mutations to a 10,000-player, 100,000-match league; print mutations/s (median)."
    )

    @Option(help: "Players in the league.")
    var players: Int = 10_000

    @Option(help: "Matches in the league.")
    var matches: Int = 100_000

    @Option(help: "Mutations per run.")
    var mutations: Int = 200_000

    @Option(help: "Client instances sending them.")
    var clients: Int = 64

    @Option(help: "Runs; the median is printed.")
    var runs: Int = 3

    func validate() throws {
        guard players >= 8, matches > 0, mutations > 0, clients > 0, runs > 0 else {
            throw ValidationError("players must be at least 8; matches, mutations, clients and runs positive")
        }
    }

    func run() throws {
        print("swift run -c release --package-path Benchmarks goal-microbench conflict-engine (median of \(runs))")
        var random = EngineBenchRandom(state: 7)
        let league = try buildLeague(&random)
        let workload = makeWorkload(league, &random)
        var rates: [Double] = []
        var tally = DecisionTally()
        for run in 0..<runs {
            var state = league  // O(1): persistent maps
            var counts = DecisionTally()
            let start = ContinuousClock.now
            for mutation in workload {
                counts.add(ConflictEngine.apply(mutation, author: "bench", to: &state))
            }
            let elapsed = ContinuousClock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            rates.append(Double(workload.count) / seconds)
            if run == 0 { tally = counts }
        }
        rates.sort()
        print(
            "league: \(players) players, \(matches) matches; \(workload.count) mutations from \(clients) clients"
        )
        print(
            "decisions: \(tally.commits) commits, \(tally.noops) noops, \(tally.duplicates) duplicates, "
                + "rejections \(tally.rejections.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))"
        )
        print("runs: " + rates.map { "\(Int($0))" }.joined(separator: ", ") + " mutations/s")
        print("median: \(Int(rates[rates.count / 2])) mutations/s")
    }

    private func buildLeague(_ random: inout EngineBenchRandom) throws -> LeagueState {
        let setup = ClientInstanceID("bench-setup")!
        let playerList = (0..<players).map { n in
            Player(
                id: PlayerID(random.uuid()),
                name: try! PlayerName(validating: "Player \(n)"),
                created: FieldStamp(revision: Revision(n + 1), writer: setup)
            )
        }
        let matchList = (0..<matches).map { n in
            let picks = random.distinct(Int(random.next() % 3) + 2, below: players)
            let split = picks.count / 2
            return Match(
                id: MatchID(random.uuid()),
                homePlayers: picks[..<split].map { playerList[$0].id },
                awayPlayers: picks[split...].map { playerList[$0].id },
                homeGoals: Int(random.next() % 10),
                awayGoals: Int(random.next() % 10),
                created: FieldStamp(revision: Revision(players + n + 1), writer: setup)
            )
        }
        return try LeagueState(
            revision: Revision(players + matches),
            players: playerList,
            matches: matchList,
            clientRecords: []
        )
    }

    private func makeWorkload(_ league: LeagueState, _ random: inout EngineBenchRandom) -> [Mutation] {
        // Sorted: the maps iterate in an order that depends on the per-process hash seed.
        let playerIDs = league.allPlayers.map(\.id).sorted()
        var matchIDs = league.allMatches.map(\.id).sorted()
        let instances = (0..<clients).map { ClientInstanceID("bench-\($0)")! }
        var seqs = [UInt64](repeating: 0, count: clients)
        var out: [Mutation] = []
        out.reserveCapacity(mutations)
        let head = league.revision
        while out.count < mutations {
            let c = Int(random.next() % UInt64(clients))
            if random.next() % 100 < 3, let old = out.last(where: { $0.id.instance == instances[c] }) {
                out.append(old)  // a retry
                continue
            }
            seqs[c] += 1
            // Bases trail the head: most are fresh enough, some are stale (conflicts), none is ahead.
            let base = head + Revision(out.count / 4)
            let match = matchIDs[Int(random.next() % UInt64(matchIDs.count))]
            let player = playerIDs[Int(random.next() % UInt64(playerIDs.count))]
            let action: MutationAction
            switch random.next() % 100 {
            case 0..<40:
                action = .adjustGoals(
                    id: match,
                    side: random.next() % 2 == 0 ? .home : .away,
                    delta: random.next() % 4 == 0 ? -1 : 1
                )
            case 40..<65:
                action = .updateMatch(
                    id: match,
                    MatchUpdate(homeGoals: Int(random.next() % 10), awayGoals: Int(random.next() % 10))
                )
            case 65..<75:
                let picks = random.distinct(2, below: playerIDs.count)
                action = .updateMatch(
                    id: match,
                    MatchUpdate(homePlayers: [playerIDs[picks[0]]], awayPlayers: [playerIDs[picks[1]]])
                )
            case 75..<83:
                let picks = random.distinct(4, below: playerIDs.count)
                let id = MatchID(random.uuid())
                matchIDs.append(id)
                action = .createMatch(
                    id: id,
                    homePlayers: picks[..<2].map { playerIDs[$0] },
                    awayPlayers: picks[2...].map { playerIDs[$0] },
                    homeGoals: Int(random.next() % 6),
                    awayGoals: Int(random.next() % 6)
                )
            case 83..<88:
                action = .deleteMatch(id: match)
            case 88..<94:
                action = .renamePlayer(id: player, name: "Renamed \(random.next() % 50_000)")
            case 94..<97:
                action = .createPlayer(id: PlayerID(random.uuid()), name: "New \(out.count)")
            default:
                action = .deletePlayer(id: player)
            }
            out.append(Mutation(id: MutationID(instance: instances[c], seq: seqs[c]), base: base, action: action))
        }
        return out
    }
}

/// Counts decisions by kind (and rejections by code).
private struct DecisionTally {
    var commits = 0
    var noops = 0
    var duplicates = 0
    var rejections: [String: Int] = [:]

    mutating func add(_ decision: EngineDecision) {
        switch decision {
        case .commit: commits += 1
        case .noop: noops += 1
        case .duplicate: duplicates += 1
        case .rejected(let rejection): rejections[rejection.code.rawValue, default: 0] += 1
        }
    }
}

/// xorshift64*: deterministic workload generation.
private struct EngineBenchRandom {
    var state: UInt64

    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }

    /// A version-4 UUID from the next 128 bits, so ids (and the maps' iteration orders) repeat run after run.
    mutating func uuid() -> UUID {
        var bytes = [UInt8](repeating: 0, count: 16)
        for half in 0..<2 {
            let word = next()
            for k in 0..<8 { bytes[half * 8 + k] = UInt8(truncatingIfNeeded: word >> (8 * k)) }
        }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            )
        )
    }

    /// `count` distinct integers below `bound`.
    mutating func distinct(_ count: Int, below bound: Int) -> [Int] {
        var picks: [Int] = []
        while picks.count < count {
            let candidate = Int(next() % UInt64(bound))
            if !picks.contains(candidate) { picks.append(candidate) }
        }
        return picks
    }
}
