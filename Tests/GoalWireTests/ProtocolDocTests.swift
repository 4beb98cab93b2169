import Foundation
import GoalModel
import GoalTestSlots
import GoalWire
import Testing

@Suite("docs/PROTOCOL.md examples stay true", .slotted)
struct ProtocolDocTests {
    static let document: String? = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return try? String(contentsOf: root.appendingPathComponent("docs/PROTOCOL.md"), encoding: .utf8)
    }()

    /// Every line inside a ```json fence.
    static var exampleLines: [String] {
        guard let document else { return [] }
        var lines: [String] = []
        var inside = false
        for line in document.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "```json" {
                inside = true
            } else if line.hasPrefix("```") {
                inside = false
            } else if inside, !line.isEmpty {
                lines.append(String(line))
            }
        }
        return lines
    }

    @Test("writes fresh examples when GOAL_PROTOCOL_EXAMPLES_OUT is set")
    func generate() throws {
        guard let path = ProcessInfo.processInfo.environment["GOAL_PROTOCOL_EXAMPLES_OUT"] else { return }
        let text = ProtocolExamples.all.map { "\($0.0)\n\(String(decoding: $0.1, as: UTF8.self))\n" }.joined(
            separator: "\n"
        )
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test("every example decodes and re-encodes to the same bytes")
    func examplesDecode() throws {
        let lines = Self.exampleLines
        #expect(lines.count >= ProtocolExamples.all.count)
        var types: Set<String> = []
        for line in lines {
            let bytes = Array(line.utf8)
            // A server `history` answer also reads as a client `history` request (same type, extra members): only
            // a client message that re-encodes to the line is one.
            if let client = try? ClientMessage.decode(bytes), client.encoded() == bytes {
                #expect(client.encoded() == bytes, "re-encoding differs: \(line)")
                types.insert(client.type)
            } else {
                let server = try ServerMessage.decode(bytes)
                #expect(server.encoded() == bytes, "re-encoding differs: \(line)")
                types.insert(server.type)
            }
        }
        #expect(types == Set(ClientMessage.types + ServerMessage.types))
    }

    @Test("every generated example appears verbatim in the document")
    func examplesCurrent() {
        let lines = Set(Self.exampleLines)
        for (name, bytes) in ProtocolExamples.all {
            #expect(lines.contains(String(decoding: bytes, as: UTF8.self)), "example \(name) is stale or missing")
        }
    }

    @Test("the document's changesets chain from genesis")
    func chain() throws {
        var previous = Digest.genesis
        var revision: Revision = 0
        for line in Self.exampleLines {
            guard case .changeset(let changeset)? = try? ServerMessage.decode(Array(line.utf8)) else { continue }
            #expect(changeset.revision == revision + 1)
            #expect(ChangesetFrame.verify(changeset, previousDigest: previous), "revision \(changeset.revision)")
            previous = changeset.digest
            revision = changeset.revision
        }
        #expect(revision == 4)
    }
}
