import Foundation
import GoalModel
import GoalServer
import GoalTestSlots
import GoalTestSupport
import GoalTransport
import GoalWire
import Testing

@Suite("interop with a standard client", .slotted)
struct InteropTests {
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Interop/websockets_client.py").path
    static let leanScript = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Interop/lean_client.py").path

    /// The system python3 when Debian's python3-websockets (which `.ci/run` installs) is there, or nil. Checked by
    /// the package's files rather than by running python: a trait's condition is evaluated synchronously.
    static let python: String? =
        FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/websockets/__init__.py")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") ? "/usr/bin/python3" : nil

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
            let result = try await ChildProcess.run(arguments[0], Array(arguments.dropFirst()), outputsIn: directory)
            #expect(result.status == 0, "\(result.stderr)")
            let messages = try result.stdout.split(separator: "\n").map { try ServerMessage.decode(Array($0.utf8)) }
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

    @Test(
        "Python, from PROTOCOL.md alone: protocol 2 deltas expand to full changesets whose digests chain",
        .enabled(if: python != nil, "needs python3-websockets (apt-get install python3-websockets; .ci/run does)")
    )
    func pythonLeanChangesets() async throws {
        let python = try #require(Self.python)
        try await withTestDaemon { daemon in
            let directory = try TestCertificates.makeTemporaryDirectory()
            let files = try TestCertificates.shared.write(to: directory)
            let arguments = [
                Self.leanScript, "--url", "wss://localhost:\(daemon.port)/v1/stream", "--ca", files.ca,
                "--token", daemon.tokens.editor,
            ]
            let result = try await ChildProcess.run(python, arguments, outputsIn: directory)
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            let lines = result.stdout.split(separator: "\n").map(String.init)
            #expect(lines == (1...10).map { "delta \($0) ok" }, "\(result.stdout)")
        }
    }
}
