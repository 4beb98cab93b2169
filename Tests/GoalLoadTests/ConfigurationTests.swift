import ArgumentParser
import GoalTestSlots
import GoalTransport
import Testing

@testable import goal_load

@Suite("Options, presets and mixes", .slotted)
struct ConfigurationTests {
    @Test func presetDefaultsAreOverriddenByFlags() throws {
        let options = try LoadOptions.parse(["--ca-file", "/tmp/ca.pem", "--preset", "latency", "--subscribers", "20"])
        let configuration = try options.configuration(environment: ["GOAL_TOKEN": "secret\n"])
        #expect(configuration.shape.subscribers == 20)
        #expect(configuration.shape.rate == 100)
        #expect(configuration.shape.writers == 4)
        #expect(configuration.token == "secret")
        #expect(configuration.scenario == .latency)
        #expect(configuration.endpoint.port == 7443)
    }

    @Test func catchupBoundsTheWritersByItsChangesets() throws {
        let options = try LoadOptions.parse(["--insecure", "--preset", "catchup", "--changesets", "500"])
        let shape = try options.shape()
        #expect(shape.catchupChangesets == 500)
        #expect(shape.maxCommits == 500)
        #expect(shape.subscribers == 1)
    }

    @Test func aTrustDecisionIsRequired() {
        #expect(throws: (any Error).self) { try LoadOptions.parse(["--preset", "fanout"]) }
    }

    @Test func theProtocolIs2ByDefaultAnd1OnAskingAndNothingElse() throws {
        let standard = try LoadOptions.parse(["--insecure"]).configuration(environment: ["GOAL_TOKEN": "t"])
        #expect(standard.protocolVersion == 2)
        let older = try LoadOptions.parse(["--insecure", "--protocol", "1"]).configuration(environment: [
            "GOAL_TOKEN": "t"
        ])
        #expect(older.protocolVersion == 1)
        let unknown = try LoadOptions.parse(["--insecure", "--protocol", "3"])
        #expect(throws: LoadError.self) { try unknown.configuration(environment: ["GOAL_TOKEN": "t"]) }
    }

    @Test func arrivalsAreEvenByDefaultAndPoissonOnAsking() throws {
        #expect(try LoadOptions.parse(["--insecure", "--preset", "latency"]).shape().arrivals == .even)
        let poisson = try LoadOptions.parse(["--insecure", "--preset", "latency", "--arrivals", "poisson"])
        #expect(try poisson.shape().arrivals == .poisson)
        #expect(throws: (any Error).self) { try LoadOptions.parse(["--insecure", "--arrivals", "bursty"]) }
    }

    @Test func aTokenIsRequired() throws {
        let options = try LoadOptions.parse(["--insecure"])
        #expect(throws: LoadError.self) { try options.configuration(environment: [:]) }
    }

    @Test func plainWebSocketURLsAreRefused() throws {
        let options = try LoadOptions.parse(["--insecure", "--url", "ws://127.0.0.1:7443"])
        #expect(throws: LoadError.self) { try options.configuration(environment: ["GOAL_TOKEN": "t"]) }
    }

    @Test func mixParsesWeightsAndPicksByThem() throws {
        let mix = try MutationMix(parsing: "create=1,adjust=2,conflict=1")
        #expect(mix.total == 4)
        #expect(mix.pick(0) == .create)
        #expect(mix.pick(1) == .adjust)
        #expect(mix.pick(2) == .adjust)
        #expect(mix.pick(3) == .conflict)
        #expect(mix.description == "create=1,adjust=2,conflict=1")
        #expect(throws: LoadError.self) { try MutationMix(parsing: "create=1,smash=2") }
        #expect(throws: LoadError.self) { try MutationMix(parsing: "adjust=0") }
    }

    @Test func sourceAddressesStayUnderThePerAddressBound() throws {
        let endpoint = try ServerEndpointFixture.loopback()
        let addresses = SourceAddresses(endpoint: endpoint, perAddress: 400)
        #expect(addresses.address(for: 0) == "127.77.0.1")
        #expect(addresses.address(for: 399) == "127.77.0.1")
        #expect(addresses.address(for: 400) == "127.77.0.2")
        #expect(addresses.address(for: 400 * 300) == "127.77.1.45")
        let named = SourceAddresses(endpoint: try ServerEndpointFixture.named(), perAddress: 400)
        #expect(named.address(for: 0) == nil)
    }
}
