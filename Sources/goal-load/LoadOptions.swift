import ArgumentParser
import GoalWire

/// goal-load's flags. Every shape flag is optional: unset flags keep the preset's value.
///
/// Parsed once by ArgumentParser; `configuration(environment:)` turns them into a `LoadConfiguration`.
struct LoadOptions: ParsableArguments {
    @Option(
        name: .customLong("url"),
        help: ArgumentHelp(
            "A goald to load, wss://HOST:PORT (default wss://127.0.0.1:7443). Repeat it for the nodes of one league: "
                + "subscribers and writers are spread round robin over them and convergence is checked on every one. "
                + "Use 127.0.0.1 addresses so connections spread over 127.0.0.0/8.",
            valueName: "url"
        )
    )
    var url: [String] = []

    @Option(
        name: .customLong("ca-file"),
        help: ArgumentHelp("PEM file of the CA to trust (goald's <state>/tls/ca.pem).", valueName: "path")
    )
    var caFile: String?

    @Flag(name: .customLong("insecure"), help: "Accept any server certificate (development only).")
    var insecure = false

    @Flag(
        name: .customLong("deflate"),
        inversion: .prefixedNo,
        help: ArgumentHelp(
            "Offer permessage-deflate (RFC 7692) on every connection, as goal-client and browsers do. Off by "
                + "default: plain frames, as the shared bench's client gets them, and every subscriber inflating "
                + "would bound goal-load itself."
        )
    )
    var deflate = false

    @Option(
        name: .customLong("protocol"),
        help: ArgumentHelp(
            "The protocol version subscribers ask for: 2 (default) gets live changesets as lean delta frames, 1 "
                + "as whole changeset frames (what older clients and the shared bench's client get).",
            valueName: "1|2"
        )
    )
    var protocolVersion = WireProtocol.version

    @Option(
        name: .customLong("token-file"),
        help: ArgumentHelp(
            "File holding an editor token (default: $GOAL_TOKEN). Never pass a token on the command line.",
            valueName: "path"
        )
    )
    var tokenFile: String?

    @Option(
        name: [.customLong("preset"), .customLong("scenario")],
        help: "Scenario defaults: fanout, latency, contention, churn, idle, catchup, many-leagues."
    )
    var preset: Scenario?

    @Option(
        name: .customLong("leagues"),
        help: ArgumentHelp(
            "Spread subscribers and writers over N leagues (subscriber i and writer j on league i mod N and j mod N), "
                + "each hello naming its league; missing leagues are created first over the HTTP API (that takes an "
                + "operator token: an admin token not confined to leagues). Convergence is checked per league. "
                + "1 (default) without --league-prefix: the default league, named nowhere.",
            valueName: "N"
        )
    )
    var leagues: Int?

    @Option(
        name: .customLong("league-prefix"),
        help: ArgumentHelp(
            "The leagues' ids are PREFIX-1 … PREFIX-N (default load).",
            valueName: "prefix"
        )
    )
    var leaguePrefix: String?

    @Flag(
        name: .customLong("route-by-league"),
        help: ArgumentHelp(
            "Send all of a league's subscribers and writers to one node (league k on node k mod the number of --url "
                + "nodes), as a load balancer that routes by league does; by default connections go round robin, so "
                + "every node writes every league."
        )
    )
    var routeByLeague = false

    @Option(name: .customLong("subscribers"), help: "Subscriber connections (stream: all).")
    var subscribers: Int?

    @Option(name: .customLong("writers"), help: "Writer connections (stream: acks).")
    var writers: Int?

    @Option(name: .customLong("duration"), help: "Seconds of writing (the measured phase).")
    var duration: Double?

    @Option(name: .customLong("max-commits"), help: "Stop writing after this many accepted commits.")
    var maxCommits: Int?

    @Option(name: .customLong("rate"), help: "Target commits per second over all writers; 0 = flat out.")
    var rate: Double?

    @Option(
        name: .customLong("arrivals"),
        help: ArgumentHelp(
            "How paced writers spread their mutations: even (every 1/rate, the writers offset from each other) or "
                + "poisson (at random, as independent clients send)."
        )
    )
    var arrivals: Arrivals?

    @Option(name: .customLong("window"), help: "Mutations each writer keeps in flight at most.")
    var window: Int?

    @Option(name: .customLong("mix"), help: "Mutation weights, e.g. create=1,adjust=6,edit=2,conflict=1.")
    var mix: String?

    @Option(name: .customLong("sampled"), help: "Subscribers that decode fully into a replica.")
    var sampled: Int?

    @Option(name: .customLong("matches"), help: "Matches created in setup that adjustments target.")
    var matches: Int?

    @Option(name: .customLong("contended"), help: "Put all adjustments and conflicting edits on this many matches.")
    var contended: Int?

    @Option(name: .customLong("changesets"), help: "catchup: changesets the lagging subscriber misses.")
    var changesets: Int?

    @Option(name: .customLong("churn-interval"), help: "Seconds between disconnect/resume storms (0 = none).")
    var churnInterval: Double?

    @Option(name: .customLong("churn-fraction"), help: "Share of subscribers in each storm (0…1).")
    var churnFraction: Double?

    @Option(name: .customLong("per-address"), help: "Connections per source address in 127.0.0.0/8.")
    var perAddress = 400

    @Option(name: .customLong("connect-concurrency"), help: "TLS handshakes in progress at once.")
    var connectConcurrency = 200

    @Option(name: .customLong("threads"), help: "Event loop threads.")
    var threads = 2

    @Option(name: .customLong("daemon-pid"), help: "goald's pid: report its CPU and RSS.")
    var daemonPID: Int32?

    @Option(name: .customLong("settle-timeout"), help: "Seconds to wait for answers and convergence at the end.")
    var settleTimeout: Double = 30

    @Flag(name: .customLong("json"), help: "Print the final report as JSON.")
    var json = false

    @Flag(name: .customLong("quiet"), help: "No progress lines.")
    var quiet = false

    func validate() throws {
        if caFile == nil, !insecure {
            throw ValidationError("pass --ca-file (goald's <state>/tls/ca.pem) or --insecure")
        }
        if let subscribers, subscribers < 0 { throw ValidationError("--subscribers must be ≥ 0") }
        if let writers, writers < 0 { throw ValidationError("--writers must be ≥ 0") }
        if let leagues, leagues < 1 { throw ValidationError("--leagues must be ≥ 1") }
        if let duration, duration <= 0 { throw ValidationError("--duration must be > 0") }
        if let rate, rate < 0 { throw ValidationError("--rate must be ≥ 0 (0 = flat out)") }
        if let window, window < 1 { throw ValidationError("--window must be ≥ 1") }
        if let churnFraction, !(0...1).contains(churnFraction) {
            throw ValidationError("--churn-fraction must be in 0…1")
        }
        if threads < 1 { throw ValidationError("--threads must be ≥ 1") }
        if let mix { _ = try MutationMix(parsing: mix) }
    }
}

extension Scenario: ExpressibleByArgument {}
extension Arrivals: ExpressibleByArgument {}
