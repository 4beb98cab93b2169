import GoalServer
import GoalStore

/// Opening the store for one command (`token`, `backup`) and closing it again, whatever happens.
enum StoreAccess {
    /// Opens `configuration.databasePath` (making the state directory 0700 if needed), runs `body`, closes.
    static func withStorage<T>(
        _ configuration: ServerConfiguration,
        _ body: (SQLiteLeagueStorage) throws -> T
    ) throws -> T {
        try OwnerOnlyFile.createDirectory(configuration.stateDirectory)
        let storage = try SQLiteLeagueStorage(path: configuration.databasePath, retention: configuration.retention)
        do {
            let result = try body(storage)
            try storage.close()
            return result
        } catch {
            try? storage.close()
            throw error
        }
    }
}

/// What a newcomer types to connect.
enum ConnectInstructions {
    /// The host clients should dial: a wildcard bind address becomes 127.0.0.1; IPv6 gets brackets.
    static func dialHost(_ host: String) -> String {
        switch host {
        case "0.0.0.0", "": return "127.0.0.1"
        case "::", "[::]": return "[::1]"
        default: return host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        }
    }

    /// `wss://HOST:PORT`.
    static func serverURL(host: String, port: Int) -> String { "wss://\(dialHost(host)):\(port)" }

    /// The `goal-client login` command for this configuration (with `--ca-file` when the CA is generated).
    static func loginCommand(configuration: ServerConfiguration, host: String, port: Int) -> String {
        var command = "goal-client login --server \(serverURL(host: host, port: port))"
        if case .generated = configuration.tls {
            command += " --ca-file \(configuration.generatedTLSDirectory)/ca.pem"
        }
        return command
    }
}
