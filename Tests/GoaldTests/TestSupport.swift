import Foundation
import GoalModel
import GoalServer
import GoalStore
import GoalWire
import Logging
import Synchronization

@testable import goald

/// A fresh directory under the system's temporary directory, removed when the object goes away.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("goald-tests-\(UUID().uuidString.lowercased())").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// A path inside the directory.
    func file(_ name: String) -> String { path + "/" + name }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// A logger that drops everything (tests never bootstrap logging).
let silentLogger = Logger(label: "goald-tests") { _ in SwiftLogNoOpLogHandler() }

/// The permission bits of a file.
func mode(of path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
}

/// Commits `names` as new players through the real conflict engine and appends them as one batch.
func addPlayers(_ names: [String], to storage: any LeagueStorage) throws {
    let league = try storage.recover()
    var state = league.state
    var digest = league.headDigest
    var commits: [LoggedCommit] = []
    let instance = ClientInstanceID("goald-tests")!
    var seq = state.clientRecord(for: instance)?.lastSeq ?? 0
    for name in names {
        seq += 1
        let mutation = Mutation(
            id: MutationID(instance: instance, seq: seq),
            base: state.revision,
            action: .createPlayer(id: PlayerID(), name: name)
        )
        guard case .commit(let commit) = ConflictEngine.apply(mutation, author: "admin", to: &state) else {
            throw CommandFailure("the engine refused to create \(name)")
        }
        let time = Timestamp(millisecondsSince1970: 1_700_000_000_000 + Int64(commit.revision))
        let frame = ChangesetFrame.encode(commit.changeset(time: time, digest: .genesis), previousDigest: digest)
        digest = frame.digest
        commits.append(LoggedCommit(changeset: commit.changeset(time: time, digest: frame.digest), frame: frame.bytes))
    }
    let records = state.clientRecord(for: instance).map { [$0] } ?? []
    try storage.append(StorageBatch(commits: commits, clientRecords: records))
}

/// A test configuration: everything default but the state directory.
func testConfiguration(_ directory: TemporaryDirectory, publicHosts: [String] = []) -> ServerConfiguration {
    ServerConfiguration(port: 0, stateDirectory: directory.file("state"), publicHosts: publicHosts)
}

/// Collects a command's output lines (tests). `Sendable`: the lines sit behind a `Mutex`.
final class OutputCapture: Sendable {
    private let lines = Mutex<[String]>([])

    /// Every line written so far.
    var text: String { lines.withLock { $0.joined(separator: "\n") } }

    /// A context writing here, with the given environment.
    func context(
        environment: [String: String] = [:],
        workingDirectory: String,
        terminal: Bool = false
    ) -> CommandContext {
        CommandContext(
            environment: environment,
            workingDirectory: workingDirectory,
            standardOutputIsTerminal: terminal,
            output: { [self] line in lines.withLock { $0.append(line) } }
        )
    }
}
