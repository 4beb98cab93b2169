import GoalModel
import GoalStore
import GoalTestSlots
import Testing

/// Random batches through the real engine, appended to every store: each must recover exactly the engine's state.
/// The stores write a batch differently (SQLite change by change; PostgreSQL each entity's final state in one
/// statement per table), so batches mix creates, renames that swap names, deletes and player-list changes.
@Suite("LeagueStorage: random batches recover to the engine's state", .slotted)
struct StorageEquivalenceTests {
    /// xorshift64*: a seeded, reproducible sequence.
    struct Generator: RandomNumberGenerator {
        var state: UInt64

        mutating func next() -> UInt64 {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return state &* 2_685_821_657_736_338_717
        }
    }

    @Test("40 batches of up to 25 random mutations", arguments: StorageKind.allCases)
    func randomBatches(kind: StorageKind) throws {
        let harness = try StoreHarness(kind)
        var driver = LeagueDriver()
        var random = Generator(state: 0x9E37_79B9_7F4A_7C15)
        let names = ["ada", "bea", "cy", "dee", "eve", "fay", "gus", "hal"]
        for batch in 0..<40 {
            for _ in 0..<Int.random(in: 1...25, using: &random) {
                let players = Array(driver.state.allPlayers.map(\.id)).sorted { $0.description < $1.description }
                let matches = Array(driver.state.allMatches.map(\.id)).sorted { $0.description < $1.description }
                let action: MutationAction
                switch Int.random(in: 0..<8, using: &random) {
                case 0, 1:
                    action = .createPlayer(id: PlayerID(), name: names.randomElement(using: &random)!)
                case 2 where !players.isEmpty:
                    action = .renamePlayer(
                        id: players.randomElement(using: &random)!,
                        name: names.randomElement(using: &random)!
                    )
                case 3 where !players.isEmpty:
                    action = .deletePlayer(id: players.randomElement(using: &random)!)
                case 4 where players.count >= 2:
                    let chosen = players.shuffled(using: &random)
                    action = .createMatch(
                        id: MatchID(),
                        homePlayers: [chosen[0]],
                        awayPlayers: Array(chosen[1..<min(3, chosen.count)]),
                        homeGoals: Int.random(in: 0...5, using: &random),
                        awayGoals: Int.random(in: 0...5, using: &random)
                    )
                case 5 where !matches.isEmpty && players.count >= 2:
                    let chosen = players.shuffled(using: &random)
                    action = .updateMatch(
                        id: matches.randomElement(using: &random)!,
                        MatchUpdate(homePlayers: [chosen[1]], awayPlayers: [chosen[0]], homeGoals: 3)
                    )
                case 6 where !matches.isEmpty:
                    action = .adjustGoals(id: matches.randomElement(using: &random)!, side: .away, delta: 1)
                case 7 where !matches.isEmpty:
                    action = .deleteMatch(id: matches.randomElement(using: &random)!)
                default:
                    action = .createPlayer(id: PlayerID(), name: names.randomElement(using: &random)!)
                }
                driver.mutate(action, by: batch.isMultiple(of: 2) ? .alpha : .beta)
            }
            try harness.storage.append(driver.takeBatch())
        }
        try harness.reopen()
        let league = try harness.storage.recover()
        #expect(league.state == driver.state)
        #expect(league.headDigest == driver.digest)
        #expect(driver.state.revision > 100, "enough commits to mean something")
    }
}
