import Foundation
import GoalTestSlots
import GoalTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("a closed output ends goal-client quietly with exit 0 (issue 16 point 10)", .serialized, .slotted)
struct BrokenPipeTests {
    @Test("tail --json | head -1: the reader goes after one line; the next write ends tail with 0, no fatal error")
    func tailIntoClosedPipe() async throws {
        try await withTestDaemon { daemon in
            let client = try ClientEnvironment.make(daemon, token: daemon.tokens.editor)
            for name in ["Alice", "Bob"] {
                #expect(try await client.run(["players", "add", name]).status == 0)
            }
            var ends: [Int32] = [0, 0]
            try Self.makePipe(&ends)
            let tail = try client.start(["tail", "--since", "0", "--json"], stdoutDescriptor: ends[1])
            close(ends[1])
            let first = try Self.readLine(from: ends[0])
            close(ends[0])  // `head -1` has its line and exits
            #expect(first.contains("\"revision\":1"), "\(first)")
            // r2 was probably written into the pipe before it closed; r3 and r4 are written after it.
            for name in ["Carol", "Dan"] {
                #expect(try await client.run(["players", "add", name]).status == 0)
            }
            let status = await tail.child.wait(timeout: 30)
            #expect(status == 0, "exit status \(status); stderr: \(tail.stderr)")
            #expect(!tail.stderr.contains("Fatal error"), "\(tail.stderr)")
            #expect(!tail.stderr.contains("Broken pipe"), "\(tail.stderr)")
        }
    }

    @Test("players list into a pipe nobody reads: exit 0 and nothing on stderr")
    func listIntoClosedPipe() async throws {
        try await withTestDaemon { daemon in
            let client = try ClientEnvironment.make(daemon, token: daemon.tokens.editor)
            #expect(try await client.run(["players", "add", "Alice"]).status == 0)
            var ends: [Int32] = [0, 0]
            try Self.makePipe(&ends)
            close(ends[0])
            let list = try client.start(["players", "list"], stdoutDescriptor: ends[1])
            close(ends[1])
            let status = await list.child.wait(timeout: 60)
            #expect(status == 0, "exit status \(status); stderr: \(list.stderr)")
            #expect(list.stderr.isEmpty, "\(list.stderr)")
        }
    }

    /// A pipe whose ends are close-on-exec: no child (the one under test gets its end by `dup2`, or another
    /// test's) may keep an end open, or the reader would never be gone.
    static func makePipe(_ ends: inout [Int32]) throws {
        try #require(pipe(&ends) == 0)
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    }

    /// Reads from `descriptor` up to and including the first newline (at most 64 KiB).
    static func readLine(from descriptor: Int32) throws -> String {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while bytes.count < 65_536 {
            let count = read(descriptor, &byte, 1)
            guard count == 1 else { break }
            if byte == UInt8(ascii: "\n") { break }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
