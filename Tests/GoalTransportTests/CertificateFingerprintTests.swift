import Foundation
import GoalClient
import GoalTestSlots
import GoalTestSupport
import GoalTransport
import Testing

@Suite("Certificate fingerprints and TLS set-up errors", .slotted)
struct CertificateFingerprintTests {
    @Test("hex with or without colons, any case, parses to the same fingerprint")
    func parsesBothForms() throws {
        let fingerprint = TestCertificates.shared.serverFingerprint
        let colons = fingerprint.description
        let plain = colons.replacingOccurrences(of: ":", with: "").lowercased()
        #expect(colons.count == 95)
        #expect(try CertificateFingerprint(parsing: colons) == fingerprint)
        #expect(try CertificateFingerprint(parsing: " \(plain)\n") == fingerprint)
    }

    @Test(
        "malformed fingerprints are refused with the reason",
        arguments: [
            ("abcd", "64 digits"),
            (String(repeating: "g", count: 64), "not a hex digit"),
        ]
    )
    func refusesMalformed(_ text: String, _ reason: String) {
        #expect {
            _ = try CertificateFingerprint(parsing: text)
        } throws: { error in
            (error as? TransportFailure)?.kind == .tls && "\(error)".contains(reason)
        }
    }

    @Test("a missing CA file fails when the transport is made, naming the file")
    func missingCAFile() {
        #expect {
            _ = try WebSocketTransport(
                endpoint: ServerEndpoint(host: "localhost"),
                security: .caFile("/nonexistent/ca.pem")
            )
        } throws: { error in
            (error as? TransportFailure)?.kind == .tls && "\(error)".contains("/nonexistent/ca.pem")
        }
    }

    @Test("a CA file written by TestCertificates is accepted")
    func writtenCAFile() throws {
        let directory = try TestCertificates.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let paths = try TestCertificates.shared.write(to: directory)
        _ = try WebSocketTransport(endpoint: ServerEndpoint(host: "localhost"), security: .caFile(paths.ca))
    }
}
