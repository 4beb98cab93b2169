/// The named load scenarios (`--preset`): each sets defaults that explicit flags override.
///
/// Value type, `Sendable`.
enum Scenario: String, Sendable, CaseIterable {
    /// Many subscribers, a few writers at a fixed rate: deliveries per second and server CPU per delivery.
    case fanout
    /// A fixed 100 commits/s to 1,000 subscribers: commit→delivery latency percentiles.
    case latency
    /// 100 writers flat out on a few matches: accepted durable commits per second and conflict rejections.
    case contention
    /// Writing while a share of the subscribers disconnects and resumes every interval.
    case churn
    /// Many connections and no writes: the daemon's memory per connection.
    case idle
    /// One subscriber misses N changesets, then resumes: time to catch up.
    case catchup
    /// Many small leagues on one goald: 1,000 leagues × 10 subscribers, one writer each, at a modest total rate
    /// (sized for a 2-core machine running goald and goal-load): deliveries/s and latency against `fanout`.
    case manyLeagues = "many-leagues"

    /// The preset's defaults, applied before any explicit flag.
    var defaults: LoadConfiguration.Shape {
        var shape = LoadConfiguration.Shape()
        switch self {
        case .fanout:
            shape.subscribers = 1_000
            shape.writers = 4
            shape.rate = 250
            shape.duration = 10
        case .latency:
            shape.subscribers = 1_000
            shape.writers = 4
            shape.rate = 100
            shape.duration = 20
        case .contention:
            shape.subscribers = 10
            shape.writers = 100
            shape.rate = 0
            shape.window = 8
            shape.duration = 10
            shape.contendedMatches = 4
            shape.mix = MutationMix(adjust: 1)
        case .churn:
            shape.subscribers = 500
            shape.writers = 4
            shape.rate = 100
            shape.duration = 15
            shape.churnInterval = 1
            shape.churnFraction = 0.2
        case .idle:
            shape.subscribers = 10_000
            shape.writers = 0
            shape.rate = 0
            shape.duration = 10
        case .catchup:
            shape.subscribers = 1
            shape.writers = 8
            shape.rate = 0
            shape.window = 16
            shape.duration = 600
            shape.catchupChangesets = 100_000
            shape.mix = MutationMix(adjust: 1)
        case .manyLeagues:
            shape.leagues = 1_000
            shape.subscribers = 10_000
            shape.writers = 1_000
            shape.rate = 500
            shape.window = 4
            shape.duration = 20
            shape.players = 2
            shape.matches = 2
            shape.sampled = 10
        }
        return shape
    }
}
