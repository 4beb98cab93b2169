import Foundation
import GoalModel
import GoalTestSlots
import Testing

/// Issue 14 point 14: GoalModel is the pure domain; every encoding and decoding of its values lives in GoalWire.
@Suite("GoalModel has no encoding", .slotted)
struct PureDomainTests {
    /// Every model type that travels on the wire or is stored.
    static let modelTypes: [Any.Type] = [
        Player.self, Match.self, Rating.self, MatchStamps.self, FieldStamp.self, PlayerID.self, MatchID.self,
        ClientInstanceID.self, Digest.self, Timestamp.self, Role.self, Side.self, MatchField.self,
        PlayerField.self, Change.self, Changeset.self, Mutation.self, MutationID.self, MutationAction.self,
        MatchUpdate.self, MutationRejection.self, MutationRejection.Code.self, EntityState.self,
        MutationOutcome.self, ClientRecord.self,
    ]

    @Test("no model type conforms to Encodable or Decodable, in any module linked into this process")
    func noCodableConformances() {
        // A dynamic cast sees every conformance of the process, wherever it is declared (GoalWire is linked
        // here through the digest hook), so a retroactive `Codable` anywhere would fail this test.
        for type in Self.modelTypes {
            #expect(!(type is any Encodable.Type), "\(type) is Encodable")
            #expect(!(type is any Decodable.Type), "\(type) is Decodable")
        }
    }

    @Test("GoalModel's sources hold no coding: no Coding folder, no Codable, Encoder, Decoder or JSON")
    func noCodingSources() throws {
        let sources = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/GoalModel")
        #expect(!FileManager.default.fileExists(atPath: sources.appendingPathComponent("Coding").path))
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
        #expect(files.contains { $0.hasSuffix(".swift") })
        for file in files where file.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for word in ["Codable", "Encodable", "Decodable", "Encoder", "Decoder", "JSON"] {
                #expect(!text.contains(word), "\(file) mentions \(word)")
            }
        }
    }
}
