import Foundation
import GoalWire

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// goal-client's saved login: `$XDG_CONFIG_HOME/goal/config.json` (else `~/.config/goal/config.json`), written
/// by `goal-client login` with mode 0600 because it holds the token.
///
/// The servers are saved as `servers` (a list, in failover order) and, for goal-client versions that know one
/// server only, the first of them as `server`; a file with `server` alone (written by such a version) is one server.
///
/// The league (`league`, a league id) is the one every command follows unless `--league` or `GOAL_LEAGUE` names
/// another; absent: the server's default league.
///
/// Value type, `Sendable`. Reading and writing are synchronous file operations.
struct ConfigFile: Sendable, Equatable {
    /// The servers, in failover order (empty: none saved).
    var servers: [String] = []
    var caFile: String?
    var fingerprint: String?
    var insecure: Bool = false
    var token: String?
    /// The league id as saved (checked when it is used: `ClientSettings.resolve`); nil: the default league.
    var league: String?

    /// The config file's path for this environment.
    static func path(environment: [String: String]) -> String {
        let base: String
        if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty {
            base = xdg
        } else {
            base = (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        }
        return base + "/goal/config.json"
    }

    /// Reads the file; a missing file is an empty configuration.
    /// - Throws: `CLIFailure.usage` when the file exists but cannot be read or parsed.
    static func load(from path: String) throws(CLIFailure) -> ConfigFile {
        guard FileManager.default.fileExists(atPath: path) else { return ConfigFile() }
        guard let data = FileManager.default.contents(atPath: path),
            // Any reading error is the usage failure thrown below, naming the file.
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else {
            throw .usage("cannot read \(path): it is not a goal-client config file; run goal-client login again")
        }
        let list = (object["servers"] as? [Any])?.compactMap { $0 as? String } ?? []
        return ConfigFile(
            servers: list.isEmpty ? (object["server"] as? String).map { [$0] } ?? [] : list,
            caFile: object["ca_file"] as? String,
            fingerprint: object["fingerprint"] as? String,
            insecure: object["insecure"] as? Bool ?? false,
            token: object["token"] as? String,
            league: object["league"] as? String
        )
    }

    /// Writes the file with mode 0600 (its directory 0700), replacing any previous one atomically.
    /// - Throws: `CLIFailure.usage` naming the path when it cannot be written.
    func save(to path: String) throws(CLIFailure) {
        let directory = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(
                atPath: directory,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
        } catch {
            throw .usage("cannot create \(directory): \(error.localizedDescription)")
        }
        var object: [(String, JSONDocument)] = []
        if let first = servers.first {
            object.append(("server", .string(first)))
            object.append(("servers", .array(servers.map(JSONDocument.string))))
        }
        if let caFile { object.append(("ca_file", .string(caFile))) }
        if let fingerprint { object.append(("fingerprint", .string(fingerprint))) }
        if insecure { object.append(("insecure", .bool(true))) }
        if let token { object.append(("token", .string(token))) }
        if let league { object.append(("league", .string(league))) }
        let bytes = Array((JSONDocument.object(object).text + "\n").utf8)
        let temporary = path + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_EXCL, 0o600)
        guard fd >= 0 else { throw .usage("cannot write \(temporary): \(String(cString: strerror(errno)))") }
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        fchmod(fd, 0o600)
        close(fd)
        guard written == bytes.count, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw .usage("cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }
}
