import Foundation
import GoalTransport
import GoalWire

extension LoadOptions {
    /// The goald loaded when no `--url` is given.
    static let defaultURL = "wss://127.0.0.1:7443"

    /// The preset's shape with every given flag applied on top.
    func shape() throws(LoadError) -> LoadConfiguration.Shape {
        var shape = preset?.defaults ?? LoadConfiguration.Shape()
        if let subscribers { shape.subscribers = subscribers }
        if let writers { shape.writers = writers }
        if let leagues { shape.leagues = leagues }
        if let duration { shape.duration = duration }
        if let maxCommits { shape.maxCommits = maxCommits }
        if let rate { shape.rate = rate }
        if let window { shape.window = window }
        if let arrivals { shape.arrivals = arrivals }
        if let mix { shape.mix = try MutationMix(parsing: mix) }
        if let sampled { shape.sampled = sampled }
        if let matches { shape.matches = matches }
        if let contended { shape.contendedMatches = contended }
        if let changesets { shape.catchupChangesets = changesets }
        if let churnInterval { shape.churnInterval = churnInterval }
        if let churnFraction { shape.churnFraction = churnFraction }
        if shape.catchupChangesets > 0, shape.maxCommits == nil { shape.maxCommits = shape.catchupChangesets }
        shape.sampled = min(shape.sampled, shape.subscribers)
        return shape
    }

    /// The whole configuration; the token comes from `--token-file` or `GOAL_TOKEN`.
    /// - Throws: `LoadError.usage` naming what is missing or malformed.
    func configuration(environment: [String: String]) throws(LoadError) -> LoadConfiguration {
        var endpoints: [ServerEndpoint] = []
        for text in url.isEmpty ? [Self.defaultURL] : url {
            do {
                endpoints.append(try ServerEndpoint(parsing: text))
            } catch {
                throw .usage(error.description)
            }
        }
        let token: String
        if let tokenFile {
            // Any reading error is the usage failure thrown below, naming the file.
            guard let text = try? String(contentsOfFile: tokenFile, encoding: .utf8) else {
                throw .usage("cannot read the token file \(tokenFile)")
            }
            token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        } else if let text = environment["GOAL_TOKEN"], !text.isEmpty {
            token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        } else {
            throw .usage(
                "no token: set GOAL_TOKEN or pass --token-file (make one with "
                    + "`goald token create --state-dir DIR --name load --role editor`)"
            )
        }
        var configuration = LoadConfiguration(
            endpoints: endpoints,
            security: insecure ? .insecure : .caFile(caFile ?? ""),
            token: token,
            scenario: preset,
            shape: try shape()
        )
        configuration.leagues = try LeagueSpread(count: configuration.shape.leagues, prefix: leaguePrefix)
        configuration.routeByLeague = routeByLeague
        configuration.connectionsPerAddress = perAddress
        configuration.connectConcurrency = max(1, connectConcurrency)
        configuration.threads = threads
        configuration.permessageDeflate = deflate
        guard WireProtocol.supportedVersions.contains(protocolVersion) else {
            throw .usage(
                "--protocol \(protocolVersion) is not a protocol version goal-load speaks "
                    + "(\(WireProtocol.supportedVersions.lowerBound) to \(WireProtocol.supportedVersions.upperBound))"
            )
        }
        configuration.protocolVersion = protocolVersion
        configuration.daemonPID = daemonPID
        configuration.settleTimeout = settleTimeout
        configuration.progressInterval = quiet ? nil : 1
        return configuration
    }
}
