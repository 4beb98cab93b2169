import GoalTestSlots
import GoalTransport
import Testing

@Suite("ServerEndpoint parsing", .slotted)
struct EndpointParsingTests {
    struct Accepted: Sendable, CustomTestStringConvertible {
        let url: String
        let host: String
        let port: Int
        let path: String
        var testDescription: String { url }
    }

    static let accepted: [Accepted] = [
        Accepted(url: "wss://localhost", host: "localhost", port: 7443, path: "/v1/stream"),
        Accepted(url: "wss://localhost/", host: "localhost", port: 7443, path: "/v1/stream"),
        Accepted(url: "wss://localhost:9000", host: "localhost", port: 9000, path: "/v1/stream"),
        Accepted(url: "wss://Goal.Example.COM:443/v1/stream", host: "goal.example.com", port: 443, path: "/v1/stream"),
        Accepted(url: "  wss://127.0.0.1:7443/custom/path \n", host: "127.0.0.1", port: 7443, path: "/custom/path"),
        Accepted(url: "WSS://league_host", host: "league_host", port: 7443, path: "/v1/stream"),
        Accepted(url: "wss://[::1]", host: "::1", port: 7443, path: "/v1/stream"),
        Accepted(url: "wss://[::1]:8443/v1/stream", host: "::1", port: 8443, path: "/v1/stream"),
        Accepted(url: "wss://[2001:DB8::1]:1", host: "2001:db8::1", port: 1, path: "/v1/stream"),
        Accepted(url: "wss://[::ffff:127.0.0.1]:65535", host: "::ffff:127.0.0.1", port: 65535, path: "/v1/stream"),
        Accepted(url: "wss://[1:2:3:4:5:6:7:8]", host: "1:2:3:4:5:6:7:8", port: 7443, path: "/v1/stream"),
    ]

    @Test("accepted URLs", arguments: accepted)
    func accepts(_ row: Accepted) throws {
        let endpoint = try ServerEndpoint(parsing: row.url)
        #expect(endpoint == ServerEndpoint(host: row.host, port: row.port, path: row.path))
    }

    struct Refused: Sendable, CustomTestStringConvertible {
        let url: String
        let kind: EndpointError.Kind
        let mentions: String
        var testDescription: String { url }
    }

    static let refused: [Refused] = [
        Refused(url: "ws://localhost:7443", kind: .insecureScheme, mentions: "wss://"),
        Refused(url: "https://localhost", kind: .unsupportedScheme, mentions: "https"),
        Refused(url: "localhost:7443", kind: .missingScheme, mentions: "wss://localhost:7443"),
        Refused(url: "", kind: .missingScheme, mentions: "wss://"),
        Refused(url: "wss://", kind: .invalidHost, mentions: "empty"),
        Refused(url: "wss://:7443", kind: .invalidHost, mentions: "empty"),
        Refused(url: "wss://local host", kind: .invalidHost, mentions: "local host"),
        Refused(url: "wss://-bad", kind: .invalidHost, mentions: "-bad"),
        Refused(url: "wss://localhost:0", kind: .invalidPort, mentions: "1…65535"),
        Refused(url: "wss://localhost:65536", kind: .invalidPort, mentions: "65536"),
        Refused(url: "wss://localhost:", kind: .invalidPort, mentions: "port"),
        Refused(url: "wss://localhost:12ab", kind: .invalidPort, mentions: "12ab"),
        Refused(url: "wss://localhost:+80", kind: .invalidPort, mentions: "+80"),
        Refused(url: "wss://::1:7443", kind: .invalidHost, mentions: "brackets"),
        Refused(url: "wss://[::1", kind: .invalidHost, mentions: "]"),
        Refused(url: "wss://[not:v6:zz]", kind: .invalidHost, mentions: "IPv6"),
        Refused(url: "wss://[1:2:3:4:5:6:7:8:9]", kind: .invalidHost, mentions: "IPv6"),
        Refused(url: "wss://[::1]7443", kind: .invalidHost, mentions: ":PORT"),
        Refused(url: "wss://[1::2::3]", kind: .invalidHost, mentions: "IPv6"),
        Refused(url: "wss://user@localhost", kind: .unsupportedComponent, mentions: "user info"),
        Refused(url: "wss://localhost/v1/stream?token=x", kind: .unsupportedComponent, mentions: "query"),
        Refused(url: "wss://localhost/#frag", kind: .unsupportedComponent, mentions: "fragment"),
    ]

    @Test("refused URLs name their problem", arguments: refused)
    func refuses(_ row: Refused) {
        #expect {
            _ = try ServerEndpoint(parsing: row.url)
        } throws: { error in
            guard let error = error as? EndpointError else { return false }
            return error.kind == row.kind && error.message.contains(row.mentions)
                && error.description.contains("invalid server URL")
        }
    }

    @Test("canonical form and Host header bracket IPv6 literals")
    func canonicalForm() throws {
        let v6 = try ServerEndpoint(parsing: "wss://[::1]:8443")
        #expect(v6.description == "wss://[::1]:8443/v1/stream")
        #expect(v6.hostHeader == "[::1]:8443")
        #expect(v6.hostIsIPAddress)
        let name = try ServerEndpoint(parsing: "wss://localhost")
        #expect(name.description == "wss://localhost:7443/v1/stream")
        #expect(!name.hostIsIPAddress)
        #expect(try ServerEndpoint(parsing: "wss://10.0.0.7").hostIsIPAddress)
        #expect(try ServerEndpoint(parsing: name.description) == name)
    }
}
