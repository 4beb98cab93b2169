import GoalClient
import GoalTransport
import GoalWire

/// Everything one goal-load run needs: where goald is (one node, or several nodes of one league), how to trust and
/// authenticate, and the shape of the load.
///
/// Value type, `Sendable`; built by the command from its flags (or by tests directly) and never changed during a
/// run.
struct LoadConfiguration: Sendable {
    /// The shape of the load: counts, rates and durations. Presets fill it; flags override single fields.
    struct Shape: Sendable, Equatable {
        /// Subscriber connections (`stream: all`).
        var subscribers = 50
        /// Writer connections (`stream: acks`).
        var writers = 5
        /// Leagues the subscribers and writers are spread over (`LeagueSpread`); 1: one league.
        var leagues = 1
        /// Target accepted commits per second over all writers; 0 = flat out (bounded by `window`).
        var rate: Double = 50
        /// How paced writers spread their mutations in time.
        var arrivals = Arrivals.even
        /// Mutations each writer keeps in flight at most.
        var window = 16
        /// Seconds of writing (the measured phase).
        var duration: Double = 5
        /// Stop writing after this many accepted commits (nil: no count bound).
        var maxCommits: Int?
        /// Which mutations writers send.
        var mix = MutationMix.standard
        /// Subscribers that decode everything into a replica (compared with the server's snapshot at the end).
        var sampled = 3
        /// Players created before the measured phase (shared by all writers' matches).
        var players = 20
        /// Matches created before the measured phase; adjustments and conflicting edits target them.
        var matches = 40
        /// When > 0, adjustments and conflicting edits go only to this many matches (contention).
        var contendedMatches = 0
        /// Seconds between churn storms; 0 = no churn.
        var churnInterval: Double = 0
        /// Share of subscribers closed and resumed in each storm.
        var churnFraction: Double = 0
        /// catchup: how many changesets the lagging subscriber misses (0 = not the catchup scenario).
        var catchupChangesets = 0
    }

    /// The goald nodes to load (never empty): subscriber i starts on `endpoints[i % count]`, writer j on
    /// `endpoints[j % count]` (or on their league's node: `routeByLeague`); both move on to the next node when theirs
    /// is lost.
    var endpoints: [ServerEndpoint]
    /// The leagues loaded and how connections are spread over them; the default league only unless `--leagues`
    /// or `--league-prefix` says otherwise.
    var leagues = LeagueSpread.defaultLeague
    /// Every connection of league k starts on node `k % count` (`--route-by-league`), instead of round robin.
    var routeByLeague = false
    /// How the server certificate is trusted.
    var security: TransportSecurity
    /// An editor (or admin) token for every connection, with a role in every league loaded; an operator token
    /// when leagues must be created.
    var token: String
    /// The preset the shape came from (reported).
    var scenario: Scenario?
    /// Counts, rates, durations.
    var shape: Shape
    /// Connections per source address in 127.0.0.0/8 (below goald's per-IP limit).
    var connectionsPerAddress = 400
    /// TLS handshakes in progress at once while connecting.
    var connectConcurrency = 200
    /// Event loop threads goal-load uses.
    var threads = 2
    /// Offer permessage-deflate on every connection, as goal-client does (`--deflate`); off by default: plain
    /// frames, as the shared bench's client gets them.
    var permessageDeflate = false
    /// The protocol version subscribers ask for (`--protocol`; the newest by default).
    var protocolVersion = WireProtocol.version
    /// goald's process id, for its CPU and RSS.
    var daemonPID: Int32?
    /// How long to wait at the end for answers and for subscribers to reach the head.
    var settleTimeout: Double = 30
    /// Seconds between progress lines; nil = none.
    var progressInterval: Double? = 1

    /// A configuration for one node.
    init(
        endpoint: ServerEndpoint,
        security: TransportSecurity,
        token: String,
        scenario: Scenario?,
        shape: Shape
    ) {
        self.init(endpoints: [endpoint], security: security, token: token, scenario: scenario, shape: shape)
    }

    /// A configuration for the nodes of one league (an empty list is refused when the run starts).
    init(
        endpoints: [ServerEndpoint],
        security: TransportSecurity,
        token: String,
        scenario: Scenario?,
        shape: Shape
    ) {
        self.endpoints = endpoints
        self.security = security
        self.token = token
        self.scenario = scenario
        self.shape = shape
    }

    /// The first node: where the setup connection goes.
    var endpoint: ServerEndpoint { endpoints[0] }

    /// The node writer `index` starts on: round robin, or its league's node.
    func server(forWriter index: Int) -> Int { server(roundRobin: index, league: leagues.league(ofWriter: index)) }

    /// The node subscriber `index` starts on: round robin, or its league's node.
    func server(forSubscriber index: Int) -> Int {
        server(roundRobin: index, league: leagues.league(ofSubscriber: index))
    }

    /// The node league `league` is set up through: the first, or the league's node (so a run routed by league loads
    /// each league on its own node only).
    func server(forSetupOf league: Int) -> Int { server(roundRobin: 0, league: league) }

    /// Node `position` of the round robin, or league `league`'s node when routing by league.
    private func server(roundRobin position: Int, league: Int) -> Int {
        (routeByLeague ? league : position) % max(endpoints.count, 1)
    }
}
