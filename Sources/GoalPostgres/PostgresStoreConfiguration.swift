import Foundation

/// Where a PostgreSQL store lives: `postgres://user[:password]@host[:port]/database[?sslmode=disable|require]`.
///
/// The password may come from the URL (tests, `GOALD_STORE_URL` in the environment) or be set separately (goald
/// reads it from a file or the environment, never from a flag). `description` never shows it.
///
/// Value type, `Sendable`.
public struct PostgresStoreConfiguration: Sendable, Equatable, CustomStringConvertible {
    /// How the connection is secured.
    public enum TLSMode: String, Sendable, Equatable {
        /// Plain TCP (loopback, or a network the operator trusts).
        case disable
        /// TLS with the server's certificate verified against the system's trust roots and its host name.
        case require
    }

    public var host: String
    public var port: Int
    public var username: String
    public var password: String?
    public var database: String
    public var tls: TLSMode
    /// The league whose tables the connections use (`search_path`); `.home` (the default league) unless the store
    /// was opened by `openLeague`.
    var namespace = PostgresLeagueNamespace.home

    public init(
        host: String,
        port: Int = 5432,
        username: String,
        password: String? = nil,
        database: String,
        tls: TLSMode = .disable
    ) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
        self.tls = tls
    }

    /// Parses a `postgres://` (or `postgresql://`) URL.
    /// - Throws: `PostgresStoreConfigurationError` naming what is wrong.
    public init(url text: String) throws(PostgresStoreConfigurationError) {
        guard let components = URLComponents(string: text) else { throw .init("\"\(Self.redact(text))\" is not a URL") }
        guard let scheme = components.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql" else {
            throw .init("the store URL must start with postgres:// (found \"\(Self.redact(text))\")")
        }
        guard let host = components.host, !host.isEmpty else { throw .init("the store URL names no host") }
        guard let user = components.user, !user.isEmpty else {
            throw .init("the store URL names no user (postgres://USER@\(host)/DATABASE)")
        }
        let database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty, !database.contains("/") else {
            throw .init("the store URL names no database (postgres://\(user)@\(host)/DATABASE)")
        }
        if let port = components.port, !(1...65_535).contains(port) {
            throw .init("the store URL's port \(port) is out of range; allowed: 1…65535")
        }
        var tls = TLSMode.disable
        for item in components.queryItems ?? [] {
            switch (item.name, item.value ?? "") {
            case ("sslmode", "disable"): tls = .disable
            case ("sslmode", "require"), ("sslmode", "verify-full"): tls = .require
            case ("sslmode", let value):
                throw .init("sslmode=\(value) is not supported; use disable or require (verify-full)")
            case (let name, _):
                throw .init("the store URL's parameter \"\(name)\" is not supported (only sslmode)")
            }
        }
        self.init(
            host: host,
            port: components.port ?? 5432,
            username: user,
            password: components.password,
            database: database,
            tls: tls
        )
    }

    /// The URL without its password (and the league's schema, for a league other than the default one).
    public var description: String {
        "postgres://\(username)@\(host):\(port)/\(database)" + (tls == .require ? "?sslmode=require" : "")
            + (namespace.schema.map { " (schema \($0))" } ?? "")
    }

    /// `text` with any password between `user:` and `@` replaced by `***`.
    static func redact(_ text: String) -> String {
        guard let at = text.lastIndex(of: "@"), let schemeEnd = text.range(of: "://")?.upperBound,
            let colon = text[schemeEnd..<at].firstIndex(of: ":")
        else { return text }
        return String(text[..<text.index(after: colon)]) + "***" + String(text[at...])
    }
}

/// A store URL that cannot be used, with what is wrong. Value type, `Sendable`.
public struct PostgresStoreConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
