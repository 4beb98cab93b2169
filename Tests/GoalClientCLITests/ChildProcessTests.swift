import Foundation
import GoalTestSlots
import GoalTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("ChildProcess: children of the test process", .slotted)
struct ChildProcessTests {
    @Test("a child inherits standard streams only, not the test process's other descriptors (a daemon's socket)")
    func inheritsNoOtherDescriptor() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("child-fds-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }  // best effort: a leftover temp dir harms none
        // An inheritable descriptor, as a listening socket made without close-on-exec would be.
        let open = Glibc.open("/dev/null", O_RDONLY)
        try #require(open > 2)
        defer { close(open) }
        let listing = directory + "/fds"
        let child = try ChildProcess.spawn("/bin/sh", ["-c", "ls /proc/$$/fd"], stdout: listing)
        #expect(await child.wait() == 0)
        let seen = try String(contentsOfFile: listing, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(seen.contains("1"), "the listing is the child's: \(seen)")
        #expect(!seen.contains("\(open)"), "the child holds descriptor \(open): \(seen)")
    }
}
