import GoalWire

/// Where a goald listens: host, port and the WebSocket path, parsed from `wss://host[:port][/path]`.
///
/// TLS is always on, so only `wss://` is accepted; `ws://` is refused with a message saying so. The port defaults to
/// 7443 and the path to `/v1/stream`. IPv6 literals are written in brackets (`wss://[::1]:7443`).
///
/// Value type, `Sendable`; parsing is pure and thread-safe.
public struct ServerEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// The port goald listens on when the URL names none.
    public static let defaultPort = 7443
    /// The WebSocket path goald serves when the URL names none.
    public static let defaultPath = WireProtocol.path

    /// The host name (lowercased) or IP literal, without brackets.
    public var host: String
    /// The TCP port, 1…65535.
    public var port: Int
    /// The request path, starting with "/".
    public var path: String

    /// Makes an endpoint from its parts, without validation beyond what the types say.
    ///
    /// - Parameters:
    ///   - host: A host name or an IP literal without brackets.
    ///   - port: The TCP port.
    ///   - path: The WebSocket request path.
    public init(host: String, port: Int = ServerEndpoint.defaultPort, path: String = ServerEndpoint.defaultPath) {
        self.host = host
        self.port = port
        self.path = path
    }

    /// Parses `wss://host[:port][/path]`.
    ///
    /// - Parameter url: The URL as a person typed it (surrounding whitespace is ignored).
    /// - Throws: `EndpointError` naming what is wrong and how to write it instead.
    public init(parsing url: String) throws(EndpointError) {
        self = try EndpointParser.parse(url)
    }

    /// True when `host` is an IPv4 or IPv6 literal (no SNI is sent; the certificate must name the address).
    public var hostIsIPAddress: Bool {
        EndpointParser.isIPv4Literal(host) || host.contains(":")
    }

    /// The host as it appears in a URL or a `Host` header: IPv6 literals in brackets.
    public var hostForURL: String {
        host.contains(":") ? "[\(host)]" : host
    }

    /// The value of the HTTP `Host` header for this endpoint.
    public var hostHeader: String {
        "\(hostForURL):\(port)"
    }

    /// The canonical URL, `wss://host:port/path`.
    public var description: String {
        "wss://\(hostForURL):\(port)\(path)"
    }
}

/// Why a server URL could not be parsed; `description` says what to write instead.
///
/// Value type, `Sendable`.
public struct EndpointError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The class of problem.
    public enum Kind: String, Sendable, Equatable {
        /// No `scheme://` at all.
        case missingScheme = "missing_scheme"
        /// `ws://`: goald never speaks plaintext.
        case insecureScheme = "insecure_scheme"
        /// A scheme other than `wss`.
        case unsupportedScheme = "unsupported_scheme"
        /// Empty host, bad characters, or a malformed IPv6 literal.
        case invalidHost = "invalid_host"
        /// Not a number in 1…65535.
        case invalidPort = "invalid_port"
        /// User info, a query or a fragment: none of them mean anything to goald.
        case unsupportedComponent = "unsupported_component"
    }

    /// The class of problem.
    public var kind: Kind
    /// The URL that was refused.
    public var url: String
    /// What is wrong and what to do, for a person.
    public var message: String

    public init(_ kind: Kind, url: String, message: String) {
        self.kind = kind
        self.url = url
        self.message = message
    }

    public var description: String { "invalid server URL \"\(url)\": \(message)" }
}
