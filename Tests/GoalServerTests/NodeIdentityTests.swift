import Foundation
import GoalServer
import GoalTestSlots
import GoalTestSupport
import Testing

/// The default node id (issue 34 point 6): kept in the state directory, made once, distinct per directory; an
/// explicit `nodeID` wins and writes nothing.
@Suite("node ids: the state directory's node-id file", .slotted)
struct NodeIdentityTests {
    @Test("no nodeID: made once as <host>-<6 hex>, written 0600, the same on every later start")
    func madeOnceAndKept() throws {
        let state = try TestCertificates.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: state) }  // cleanup only
        let made = try NodeIdentity.resolve(explicit: nil, stateDirectory: state)
        let host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "goald"
        #expect(made.hasPrefix(host + "-"), "\(made)")
        #expect(made.wholeMatch(of: /.+-[0-9a-f]{6}/) != nil, "\(made)")
        let path = state + "/" + NodeIdentity.fileName
        #expect(try String(contentsOfFile: path, encoding: .utf8) == made + "\n")
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(try NodeIdentity.resolve(explicit: nil, stateDirectory: state) == made)
    }

    @Test("two state directories on one host get two ids")
    func distinctPerDirectory() throws {
        let first = try TestCertificates.makeTemporaryDirectory()
        let second = try TestCertificates.makeTemporaryDirectory()
        defer {
            try? FileManager.default.removeItem(atPath: first)  // cleanup only
            try? FileManager.default.removeItem(atPath: second)  // cleanup only
        }
        let ids = try [first, second].map { try NodeIdentity.resolve(explicit: nil, stateDirectory: $0) }
        #expect(ids[0] != ids[1])
    }

    @Test("an explicit nodeID wins and no file is written")
    func explicitWins() throws {
        let state = try TestCertificates.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: state) }  // cleanup only
        #expect(try NodeIdentity.resolve(explicit: "goald-east-1", stateDirectory: state) == "goald-east-1")
        #expect(!FileManager.default.fileExists(atPath: state + "/" + NodeIdentity.fileName))
    }

    @Test("an operator's edit is kept (whitespace trimmed); an empty or multi-line file is refused naming it")
    func fileContents() throws {
        let state = try TestCertificates.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: state) }  // cleanup only
        let path = state + "/" + NodeIdentity.fileName
        try "  rack-7  \n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try NodeIdentity.resolve(explicit: nil, stateDirectory: state) == "rack-7")
        for bad in ["", "\n\n", "a\nb\n", String(repeating: "x", count: 129)] {
            try bad.write(toFile: path, atomically: true, encoding: .utf8)
            let error = #expect(throws: NodeIdentityError.self) {
                try NodeIdentity.resolve(explicit: nil, stateDirectory: state)
            }
            #expect(error?.description.hasPrefix("node id file \(path): no valid node id in it") == true)
        }
    }

    @Test("generated ids: the host name's first label, or goald for an empty one")
    func generatedNames() {
        #expect(NodeIdentity.generated(hostName: "vm.example.com").hasPrefix("vm-"))
        #expect(NodeIdentity.generated(hostName: "").hasPrefix("goald-"))
        #expect(NodeIdentity.generated(hostName: "a").count == "a-".count + 6)
    }
}
