import GoalModel

/// What a writer's mutations refer to: the pool players, the target matches, its own player, and the revision at
/// which setup finished (the deliberately stale base of conflicting edits).
///
/// Value type, `Sendable`.
struct WriterPlan: Sendable {
    var players: [PlayerID] = []
    var matches: [MatchID] = []
    var ownPlayer: PlayerID?
    var setupRevision: Revision = 0
    var mix = MutationMix.standard
    /// The run's tag: part of every name goal-load creates, so runs against one daemon never collide.
    var tag = "run"
}

/// A small deterministic random generator (xorshift64*), one per writer: cheap and reproducible from its seed.
///
/// Value type, `Sendable`.
struct LoadRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed
    }

    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }
}

/// Turns the mix into concrete mutations for one writer.
///
/// Value type, `Sendable`; owned by the writer's state.
struct MutationSource: Sendable {
    let plan: WriterPlan
    let writerIndex: Int
    private var random: LoadRandom
    /// The −1 that balances the last +1 (same match and side), sent next.
    private var pendingDecrement: (MatchID, Side)?
    private var renames = 0

    init(plan: WriterPlan, writerIndex: Int) {
        self.plan = plan
        self.writerIndex = writerIndex
        self.random = LoadRandom(seed: UInt64(writerIndex + 1) &* 0x1000_0000_01B3)
    }

    /// The next mutation's action and base, given the newest revision this writer knows.
    /// - Returns: the action, its base and its kind (for the report).
    mutating func next(knownRevision: Revision) -> (MutationAction, Revision, MutationMix.Kind) {
        if let (match, side) = pendingDecrement {
            pendingDecrement = nil
            return (.adjustGoals(id: match, side: side, delta: -1), knownRevision, .adjust)
        }
        var kind = plan.mix.pick(Int(random.next() % UInt64(max(1, plan.mix.total))))
        if kind != .create, plan.matches.isEmpty { kind = .create }
        if kind == .edit, plan.ownPlayer == nil { kind = .adjust }
        if kind == .create, plan.players.count < 2 { kind = .adjust }
        switch kind {
        case .create:
            let home = Int(random.next() % UInt64(plan.players.count))
            var away = Int(random.next() % UInt64(plan.players.count - 1))
            if away >= home { away += 1 }
            let action = MutationAction.createMatch(
                id: MatchID(),
                homePlayers: [plan.players[home]],
                awayPlayers: [plan.players[away]],
                homeGoals: Int(random.next() % 10),
                awayGoals: Int(random.next() % 10)
            )
            return (action, knownRevision, .create)
        case .adjust:
            let match = plan.matches[Int(random.next() % UInt64(plan.matches.count))]
            let side: Side = random.next() & 1 == 0 ? .home : .away
            pendingDecrement = (match, side)
            return (.adjustGoals(id: match, side: side, delta: 1), knownRevision, .adjust)
        case .edit:
            renames += 1
            let name = "load-\(plan.tag)-w\(writerIndex)-\(renames)"
            return (.renamePlayer(id: plan.ownPlayer!, name: name), knownRevision, .edit)
        case .conflict:
            let match = plan.matches[Int(random.next() % UInt64(plan.matches.count))]
            let goals = 100 + Int(random.next() % 800)
            return (.updateMatch(id: match, MatchUpdate(homeGoals: goals)), plan.setupRevision, .conflict)
        }
    }
}
