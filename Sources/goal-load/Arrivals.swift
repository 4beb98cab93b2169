/// How a paced writer's mutations are spread in time (`--arrivals`).
///
/// Value type, `Sendable`.
enum Arrivals: String, Sendable, CaseIterable {
    /// One mutation every 1/rate per writer, the writers offset from each other so that the run's mutations are
    /// evenly spaced (`SendCredit.start(phase:)`): the steadiest load a rate describes.
    case even
    /// Each writer's mutations at random, a Poisson process of its rate, so the run's are one of the total rate:
    /// the clusters that independent clients make (at 100/s, about one gap in ten is under a millisecond).
    case poisson
}
