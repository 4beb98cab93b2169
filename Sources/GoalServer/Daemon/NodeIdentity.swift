import Foundation

/// The node id a daemon runs under when `ServerConfiguration.nodeID` is not set: the one kept in the state
/// directory's `node-id` file, made on first start as `<host name>-<6 hex digits>`. Several goald on one host (each
/// with its own state directory) so get distinct ids, and a node keeps its id across restarts (presence ids, logs
/// and `/healthz` stay comparable).
///
/// Stateless, callable from any thread; does blocking file IO. The caller holds the state directory's lock, so no
/// other goald writes the file at the same time.
package enum NodeIdentity {
    /// The file inside the state directory.
    package static let fileName = "node-id"

    /// The longest id accepted (bytes of UTF-8 are not limited further: ids appear in JSON and logs only).
    package static let maximumLength = 128

    /// `explicit` when set, else the state directory's id, made and written (0600) when there is none yet.
    /// - Throws: `NodeIdentityError` naming the file when it cannot be read or written, or holds no valid id.
    package static func resolve(explicit: String?, stateDirectory: String) throws(NodeIdentityError) -> String {
        if let explicit { return explicit }
        let path = stateDirectory + "/" + fileName
        if OwnerOnlyFile.exists(path) {
            let bytes: [UInt8]
            do {
                bytes = try OwnerOnlyFile.read(path)
            } catch {
                throw NodeIdentityError(path: path, reason: error.reason)
            }
            let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if let problem = problem(with: text) {
                throw NodeIdentityError(
                    path: path,
                    reason: "no valid node id in it (\(problem)); fix or delete the file"
                )
            }
            return text
        }
        let made = generated(hostName: ProcessInfo.processInfo.hostName)
        do {
            try OwnerOnlyFile.writeExclusively(Array((made + "\n").utf8), to: path)
        } catch {
            throw NodeIdentityError(path: path, reason: error.reason)
        }
        return made
    }

    /// A new id: the host name's first label (at most 64 characters; `goald` when empty) and 6 random hex digits.
    package static func generated(hostName: String) -> String {
        let label = hostName.split(separator: ".").first.map { String($0.prefix(64)) } ?? ""
        let suffix = String(UInt32.random(in: 0...0xFF_FFFF), radix: 16)
        return (label.isEmpty ? "goald" : label) + "-" + String(repeating: "0", count: 6 - suffix.count) + suffix
    }

    /// Why `text` cannot be a node id, or nil when it can: 1–128 characters on one line.
    package static func problem(with text: String) -> String? {
        if text.isEmpty || text.count > maximumLength || text.contains(where: \.isNewline) {
            return "must be 1–\(maximumLength) characters on one line"
        }
        return nil
    }
}

/// The state directory's `node-id` file could not be used. Value type, `Sendable`.
package struct NodeIdentityError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file.
    package var path: String
    /// What went wrong.
    package var reason: String

    package var description: String { "node id file \(path): \(reason)" }
}
