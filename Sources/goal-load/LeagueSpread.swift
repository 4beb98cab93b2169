import GoalModel

/// Which leagues a run loads and how its subscribers and writers are spread over them (`--leagues N`,
/// `--league-prefix P`): subscriber i follows league `i mod N`, writer j writes to league `j mod N`.
///
/// One league without a prefix is today's run exactly: the default league, no league named in any hello, no HTTP
/// API call. Otherwise the leagues are `P-1` … `P-N` (`load-1` … by default), named in every hello.
///
/// Value type, `Sendable`; pure.
struct LeagueSpread: Sendable, Equatable {
    /// The prefix used when `--leagues` is over 1 and no `--league-prefix` is given.
    static let defaultPrefix = "load"

    /// The leagues named, in order; empty: the default league, named nowhere.
    let named: [LeagueSlug]

    /// The default league only (today's run).
    static let defaultLeague = LeagueSpread(named: [])

    private init(named: [LeagueSlug]) { self.named = named }

    /// The leagues `prefix-1` … `prefix-count`, or the default league for one league without a prefix.
    /// - Throws: `LoadError.usage` when `count` is below 1 or a slug would break the slug rules (too long, bad
    ///   characters in the prefix).
    init(count: Int, prefix: String?) throws(LoadError) {
        guard count >= 1 else { throw .usage("--leagues must be ≥ 1") }
        guard count > 1 || prefix != nil else {
            self = .defaultLeague
            return
        }
        let prefix = prefix ?? Self.defaultPrefix
        var named: [LeagueSlug] = []
        named.reserveCapacity(count)
        for number in 1...count {
            do {
                named.append(try LeagueSlug(validating: "\(prefix)-\(number)"))
            } catch {
                throw .usage("--league-prefix \(prefix) with --leagues \(count): \(error)")
            }
        }
        self.named = named
    }

    /// How many leagues the run loads (1 for the default league).
    var count: Int { max(named.count, 1) }

    /// True when the run names leagues (hellos carry `league`, missing leagues are created over the HTTP API).
    var namesLeagues: Bool { !named.isEmpty }

    /// The league the hellos of league `index` name; nil for the default league (no `league` in the hello).
    func slug(_ index: Int) -> LeagueSlug? {
        named.isEmpty ? nil : named[index % named.count]
    }

    /// The league's id as the report shows it (`default` for the default league).
    func name(_ index: Int) -> String {
        slug(index)?.rawValue ?? LeagueSlug.default.rawValue
    }

    /// The league subscriber `index` follows.
    func league(ofSubscriber index: Int) -> Int { index % count }

    /// The league writer `index` writes to.
    func league(ofWriter index: Int) -> Int { index % count }

    /// The indices (among `total`) of the subscribers or writers of league `league`, in order.
    func members(ofLeague league: Int, total: Int) -> [Int] {
        guard league >= 0, league < count, league < total else { return [] }
        return Array(stride(from: league, to: total, by: count))
    }
}
