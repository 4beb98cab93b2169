import Foundation
import GoalTestSlots
import GoalTestSupport
import Testing

@testable import goal_client

/// Text that is not UTF-8 never becomes a name: not from the command line, not from the terminal (issue 35 point 3;
/// the HTTP API's side is RESTAPIGoalbaseTests, WebSocket text is 1007).
@Suite("goal-client refuses text that is not UTF-8 instead of repairing it", .slotted)
struct TextEncodingTests {
    @Test("an argument that is not UTF-8 is a usage error (exit 2) naming it; nothing is sent")
    func invalidArgument() async throws {
        try await withTestDaemon { daemon in
            let client = try ClientEnvironment.make(daemon, token: daemon.tokens.editor)
            // A Swift String cannot hold the byte 0xFF: the shell's printf puts it into the argument.
            let child = try ChildProcess.spawn(
                "/bin/sh",
                ["-c", #"exec "$0" players add "Ad$(printf '\377')""#, ClientEnvironment.executable.path],
                environment: client.environment,
                stdout: client.directory + "/bad-arg.out",
                stderr: client.directory + "/bad-arg.err"
            )
            let status = await child.wait(timeout: 60)
            let stderr = (try? String(contentsOfFile: client.directory + "/bad-arg.err", encoding: .utf8)) ?? ""
            #expect(status == 2, "\(stderr)")
            #expect(stderr.contains("goal-client: argument 3 ("), "\(stderr)")
            #expect(stderr.contains(") is not valid UTF-8; give text in UTF-8"), "\(stderr)")
            let list = try await client.run(["players", "list", "--json"])
            #expect(list.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]", "nothing was added")
        }
    }

    @Test("bytes from the terminal that are not UTF-8 are no key; the text around them is kept")
    func terminalBytes() {
        var decoder = KeyDecoder()
        let keys = decoder.decode([UInt8(ascii: "A"), 0xFF, 0xC3, 0x28, UInt8(ascii: "d"), 0xC3, 0xA9])
        #expect(keys == [.character("A"), .character("("), .character("d"), .character("é")])
    }
}
