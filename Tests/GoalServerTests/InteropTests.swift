import Foundation
import GoalModel
import GoalServer
import GoalTestSupport
import GoalTransport
import GoalWire
import Testing

@Suite("interop with a standard client")
struct InteropTests {
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Interop/websockets_client.py").path

    /// A python3 that has the `websockets` package (Debian's python3-websockets, which `.ci/run` installs, goes
    /// with /usr/bin/python3), or nil.
    static let python: String? = ["/usr/bin/python3", "python3"].first { candidate in
        (try? run([candidate, "-c", "import websockets"]).status) == 0
    }

    static func run(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let error = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: error, as: UTF8.self)
        )
    }

    @Test(
        "Python websockets: wss with the CA, hello, mutate, the changeset then the ack, then a snapshot",
        .enabled(if: python != nil, "needs python3-websockets (apt-get install python3-websockets; .ci/run does)")
    )
    func pythonWebsockets() async throws {
        let python = try #require(Self.python)
        try await withTestDaemon { daemon in
            let directory = try TestCertificates.makeTemporaryDirectory()
            let files = try TestCertificates.shared.write(to: directory)
            let arguments = [
                python, Self.script, "--url", "wss://localhost:\(daemon.port)/v1/stream", "--ca", files.ca,
                "--token", daemon.tokens.editor,
            ]
            let result = try await Task.detached { try Self.run(arguments) }.value
            #expect(result.status == 0, "\(result.error)")
            let messages = try result.output.split(separator: "\n").map { try ServerMessage.decode(Array($0.utf8)) }
            #expect(
                messages.map(\.type) == [
                    "welcome", "changeset", "ack", "welcome", "snapshot_begin", "snapshot_chunk", "snapshot_end",
                ]
            )
            guard case .changeset(let changeset) = messages[1] else { return }
            #expect(changeset.author == "alice")
            #expect(ChangesetFrame.verify(changeset, previousDigest: .genesis))
            guard case .snapshotChunk(let chunk) = messages[5] else { return }
            #expect(chunk.players.map(\.name) == ["Python Pat"])
        }
    }
}
