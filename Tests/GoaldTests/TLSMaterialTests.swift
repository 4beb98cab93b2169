import Foundation
import GoalServer
import GoalTestSlots
import NIOSSL
import Testing

@testable import goald

@Suite("TLSMaterial: loading generated and operator material", .slotted)
struct TLSMaterialTests {
    @Test("generated material loads, names the CA file, fingerprints the leaf and builds an NIOSSLContext")
    func generatedMaterial() throws {
        let directory = try TemporaryDirectory()
        let configuration = testConfiguration(directory)
        let material = try TLSMaterial.load(for: configuration)
        #expect(material.authorityCertificatePath == configuration.generatedTLSDirectory + "/ca.pem")
        #expect(material.certificateChain.count == 1)
        #expect(material.fingerprint.count == 64)
        #expect(material.fingerprint.allSatisfy { "0123456789abcdef".contains($0) })
        _ = try material.makeServerContext()
        // PROTOCOL.md §1: TLS 1.2 and 1.3 are accepted (no maximum: BoringSSL's own, 1.3), nothing older.
        #expect(material.serverConfiguration.minimumTLSVersion == .tlsv12)
        #expect(material.serverConfiguration.maximumTLSVersion == nil)
        // Loading again reuses the files: same leaf, same fingerprint.
        #expect(try TLSMaterial.load(for: configuration).fingerprint == material.fingerprint)
    }

    @Test("operator files load with no CA path; a key of another certificate is refused by name")
    func operatorFiles() throws {
        let generated = try TemporaryDirectory()
        let other = try TemporaryDirectory()
        let first = try TLSMaterial.load(for: testConfiguration(generated))
        _ = try TLSMaterial.load(for: testConfiguration(other))
        let tls = generated.file("state/tls")
        let files = ServerConfiguration(
            stateDirectory: generated.file("unused"),
            tls: .files(certificate: tls + "/server.pem", privateKey: tls + "/server-key.pem")
        )
        let material = try TLSMaterial.load(for: files)
        #expect(material.authorityCertificatePath == nil)
        #expect(material.fingerprint == first.fingerprint)

        let mismatched = ServerConfiguration(
            stateDirectory: generated.file("unused"),
            tls: .files(certificate: tls + "/server.pem", privateKey: other.file("state/tls/server-key.pem"))
        )
        let error = #expect(throws: TLSError.self) { try TLSMaterial.load(for: mismatched) }
        #expect(error?.code == .keyMismatch)
        #expect(error?.description.contains(other.file("state/tls/server-key.pem")) == true)
    }

    @Test("missing and malformed files are named in the error")
    func badFiles() throws {
        let directory = try TemporaryDirectory()
        let missing = ServerConfiguration(
            stateDirectory: directory.path,
            tls: .files(certificate: directory.file("nope.pem"), privateKey: directory.file("nope-key.pem"))
        )
        let unreadable = #expect(throws: TLSError.self) { try TLSMaterial.load(for: missing) }
        #expect(
            unreadable?.description == "cannot read \(directory.file("nope.pem")): no such file. Check the path "
                + "and that goald's user may read it"
        )

        try "not a certificate\n".write(toFile: directory.file("junk.pem"), atomically: true, encoding: .utf8)
        let junk = ServerConfiguration(
            stateDirectory: directory.path,
            tls: .files(certificate: directory.file("junk.pem"), privateKey: directory.file("junk.pem"))
        )
        let invalid = #expect(throws: TLSError.self) { try TLSMaterial.load(for: junk) }
        #expect(invalid?.code == .invalidPEM || invalid?.code == .emptyChain)
        #expect(invalid?.description.contains(directory.file("junk.pem")) == true)
    }

    @Test("inline PEM loads; its key never appears in descriptions")
    func inlinePEM() throws {
        let directory = try TemporaryDirectory()
        _ = try TLSMaterial.load(for: testConfiguration(directory))
        let tls = directory.file("state/tls")
        let key = try String(contentsOfFile: tls + "/server-key.pem", encoding: .utf8)
        let source = ServerConfiguration.TLSSource.pem(
            certificateChain: try String(contentsOfFile: tls + "/server.pem", encoding: .utf8),
            privateKey: SecretText(key)
        )
        let material = try TLSMaterial.load(for: ServerConfiguration(stateDirectory: directory.path, tls: source))
        _ = try material.makeServerContext()
        #expect(!"\(source)".contains("PRIVATE KEY"))
        #expect("\(SecretText(key))" == "<secret, \(key.utf8.count) bytes>")
    }
}
