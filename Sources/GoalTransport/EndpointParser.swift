/// Parses `wss://host[:port][/path]` by hand so that every refusal names its exact cause.
///
/// Pure functions over strings; thread-safe.
enum EndpointParser {
    static func parse(_ input: String) throws(EndpointError) -> ServerEndpoint {
        let url = input.trimmingWhitespace()
        func fail(_ kind: EndpointError.Kind, _ message: String) -> EndpointError {
            EndpointError(kind, url: url, message: message)
        }

        guard let schemeEnd = url.firstRange(of: "://") else {
            throw fail(.missingScheme, "write it as wss://HOST[:PORT][/PATH], for example wss://\(url)")
        }
        let scheme = url[..<schemeEnd.lowerBound].lowercased()
        switch scheme {
        case "wss":
            break
        case "ws":
            throw fail(.insecureScheme, "goald always uses TLS; write wss:// instead of ws://")
        default:
            throw fail(.unsupportedScheme, "scheme \"\(scheme)\" is not supported; write wss://HOST[:PORT][/PATH]")
        }

        let rest = url[schemeEnd.upperBound...]
        if rest.contains("?") {
            throw fail(.unsupportedComponent, "a query string is not supported; tokens go in the hello message")
        }
        if rest.contains("#") {
            throw fail(.unsupportedComponent, "a fragment (#…) is not supported")
        }
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        let rawPath = rest[authorityEnd...]
        if authority.contains("@") {
            throw fail(.unsupportedComponent, "user info (user@host) is not supported; tokens go in the hello message")
        }

        let (host, portText) = try splitAuthority(authority, fail: fail)
        var port = ServerEndpoint.defaultPort
        if let portText {
            guard !portText.isEmpty, portText.allSatisfy(\.isASCIIDigit), portText.count <= 5,
                let value = Int(portText), (1...65_535).contains(value)
            else {
                throw fail(.invalidPort, "port \"\(portText)\" is not a number in 1…65535")
            }
            port = value
        }
        let path = rawPath.isEmpty || rawPath == "/" ? ServerEndpoint.defaultPath : String(rawPath)
        return ServerEndpoint(host: host, port: port, path: path)
    }

    /// Splits `host[:port]` or `[v6]:port`, validating the host.
    private static func splitAuthority(
        _ authority: Substring,
        fail: (EndpointError.Kind, String) -> EndpointError
    ) throws(EndpointError) -> (host: String, port: Substring?) {
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                throw fail(.invalidHost, "IPv6 literal is missing its closing \"]\"")
            }
            let literal = authority[authority.index(after: authority.startIndex)..<close]
            guard isIPv6Literal(literal) else {
                throw fail(.invalidHost, "\"\(literal)\" is not an IPv6 address")
            }
            let after = authority[authority.index(after: close)...]
            if after.isEmpty { return (literal.lowercased(), nil) }
            guard after.hasPrefix(":") else {
                throw fail(.invalidHost, "expected \":PORT\" after \"]\", found \"\(after)\"")
            }
            return (literal.lowercased(), after.dropFirst())
        }
        if authority.filter({ $0 == ":" }).count > 1 {
            throw fail(.invalidHost, "IPv6 addresses must be written in brackets, for example wss://[::1]:7443")
        }
        let colon = authority.firstIndex(of: ":")
        let host = colon.map { authority[..<$0] } ?? authority
        let port = colon.map { authority[authority.index(after: $0)...] }
        if host.isEmpty {
            throw fail(.invalidHost, "the host is empty; write wss://HOST[:PORT][/PATH]")
        }
        guard host.allSatisfy(\.isHostNameCharacter), !host.hasPrefix("-"), !host.hasPrefix(".") else {
            throw fail(.invalidHost, "\"\(host)\" is not a valid host name")
        }
        return (host.lowercased(), port)
    }

    /// True for a dotted-quad IPv4 literal.
    static func isIPv4Literal(_ text: some StringProtocol) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in
                !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCIIDigit) && Int(part)! <= 255
            }
    }

    /// A structural IPv6 check: hex groups separated by colons, at most one "::", optional trailing IPv4.
    static func isIPv6Literal(_ text: Substring) -> Bool {
        guard text.contains(":"), !text.contains(":::"), text.count <= 45 else { return false }
        let doubleColons = text.ranges(of: "::").count
        guard doubleColons <= 1 else { return false }
        var groups = text.split(separator: ":", omittingEmptySubsequences: false)
        var groupBudget = 8
        if let last = groups.last, last.contains(".") {
            guard isIPv4Literal(last) else { return false }
            groups.removeLast()
            groupBudget = 6
        }
        let nonEmpty = groups.filter { !$0.isEmpty }
        guard nonEmpty.allSatisfy({ $0.count <= 4 && $0.allSatisfy(\.isHexDigit) }) else { return false }
        if doubleColons == 1 {
            return nonEmpty.count < groupBudget
        }
        return groups.count == groupBudget && nonEmpty.count == groupBudget
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
    fileprivate var isHostNameCharacter: Bool {
        isASCII && (isLetter || isNumber || self == "-" || self == "." || self == "_")
    }
}

extension String {
    fileprivate func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
