import Foundation
import GoalServer
import GoalTestSlots
import NIOSSL
import SwiftASN1
import Testing
import X509

@testable import goald

@Suite("First-start TLS: the development CA and server certificate", .slotted)
struct DevCertificateAuthorityTests {
    @Test("first start writes the CA and server files, keys 0600")
    func firstStartWritesFiles() throws {
        let directory = try TemporaryDirectory()
        let authority = DevCertificateAuthority(directory: directory.file("tls"))
        let outcome = try authority.ensure(publicHosts: ["goal.example.com"])
        #expect(outcome.authorityCreated)
        #expect(outcome.serverIssued == .missing)
        for path in [authority.authorityCertificatePath, authority.serverCertificatePath] {
            #expect(FileManager.default.fileExists(atPath: path))
        }
        #expect(try mode(of: authority.authorityKeyPath) == 0o600)
        #expect(try mode(of: authority.serverKeyPath) == 0o600)
        #expect(try mode(of: directory.file("tls")) == 0o700)
    }

    @Test("the server certificate names localhost, 127.0.0.1, ::1 and every public host")
    func subjectAlternativeNames() throws {
        let directory = try TemporaryDirectory()
        let authority = DevCertificateAuthority(directory: directory.file("tls"))
        try authority.ensure(publicHosts: ["Goal.Example.com", "192.0.2.7", "[2001:db8::1]"])
        let names = authority.serverCertificateNames()
        #expect(
            names == [
                .dnsName("localhost"), .ipAddress([127, 0, 0, 1]), .ipAddress(Array(repeating: 0, count: 15) + [1]),
                .dnsName("goal.example.com"), .ipAddress([192, 0, 2, 7]),
                .ipAddress([0x20, 0x01, 0x0d, 0xb8] + Array(repeating: 0, count: 11) + [1]),
            ]
        )
        #expect(
            names.map(\.description).sorted() == [
                "127.0.0.1", "192.0.2.7", "2001:db8::1", "::1", "goal.example.com", "localhost",
            ]
        )
    }

    @Test("the server certificate verifies against the CA with swift-certificates' Verifier")
    func verifiesAgainstAuthority() async throws {
        let directory = try TemporaryDirectory()
        let authority = DevCertificateAuthority(directory: directory.file("tls"))
        try authority.ensure(publicHosts: ["goal.example.com"])
        let root = try Certificate(
            pemEncoded: String(contentsOfFile: authority.authorityCertificatePath, encoding: .utf8)
        )
        let leaf = try Certificate(pemEncoded: String(contentsOfFile: authority.serverCertificatePath, encoding: .utf8))
        for name in ["localhost", "goal.example.com"] {
            var verifier = Verifier(rootCertificates: CertificateStore([root])) {
                RFC5280Policy()
                ServerIdentityPolicy(serverHostname: name, serverIP: nil)
            }
            let result = await verifier.validate(leaf: leaf, intermediates: CertificateStore())
            guard case .validCertificate(let chain) = result else {
                Issue.record("\(name): \(result)")
                continue
            }
            #expect(chain.last == root)
        }
        var wrongName = Verifier(rootCertificates: CertificateStore([root])) {
            RFC5280Policy()
            ServerIdentityPolicy(serverHostname: "other.example.com", serverIP: nil)
        }
        let refused = await wrongName.validate(leaf: leaf, intermediates: CertificateStore())
        guard case .couldNotValidate = refused else {
            Issue.record("a name the certificate does not cover verified: \(refused)")
            return
        }
    }

    @Test("a second start reuses every file untouched")
    func secondStartReuses() throws {
        let directory = try TemporaryDirectory()
        let authority = DevCertificateAuthority(directory: directory.file("tls"))
        try authority.ensure(publicHosts: ["goal.example.com"])
        let paths = [
            authority.authorityCertificatePath, authority.authorityKeyPath, authority.serverCertificatePath,
            authority.serverKeyPath,
        ]
        let before = try paths.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        let outcome = try authority.ensure(publicHosts: ["GOAL.example.com"])
        #expect(!outcome.authorityCreated)
        #expect(outcome.serverIssued == nil)
        #expect(try paths.map { try Data(contentsOf: URL(fileURLWithPath: $0)) } == before)
    }

    @Test("adding a public host re-issues the server certificate with the same CA")
    func addedHostReissues() throws {
        let directory = try TemporaryDirectory()
        let authority = DevCertificateAuthority(directory: directory.file("tls"))
        try authority.ensure(publicHosts: [])
        let authorityBefore = try Data(contentsOf: URL(fileURLWithPath: authority.authorityCertificatePath))
        let serverBefore = try Data(contentsOf: URL(fileURLWithPath: authority.serverCertificatePath))
        let outcome = try authority.ensure(publicHosts: ["league.example.org"])
        #expect(!outcome.authorityCreated)
        #expect(outcome.serverIssued == .hostsChanged)
        #expect(try Data(contentsOf: URL(fileURLWithPath: authority.authorityCertificatePath)) == authorityBefore)
        #expect(try Data(contentsOf: URL(fileURLWithPath: authority.serverCertificatePath)) != serverBefore)
        #expect(authority.serverCertificateNames().contains(.dnsName("league.example.org")))
        #expect(try mode(of: authority.serverKeyPath) == 0o600)
    }

    @Test("a server certificate expiring within 30 days is re-issued")
    func expiringReissues() throws {
        let directory = try TemporaryDirectory()
        let authority = DevCertificateAuthority(directory: directory.file("tls"))
        let longAgo = Date().addingTimeInterval(-380 * 24 * 3600)
        try authority.ensure(publicHosts: [], now: longAgo)
        #expect(try authority.ensure(publicHosts: []).serverIssued == .expiring)
        #expect(try authority.ensure(publicHosts: []).serverIssued == nil)
    }

    @Test("a CA certificate without its key is refused, naming both files")
    func incompleteAuthority() throws {
        let directory = try TemporaryDirectory()
        let authority = DevCertificateAuthority(directory: directory.file("tls"))
        try authority.ensure(publicHosts: [])
        try FileManager.default.removeItem(atPath: authority.authorityKeyPath)
        let error = #expect(throws: TLSError.self) { try authority.ensure(publicHosts: []) }
        #expect(error?.code == .incompleteAuthority)
        #expect(error?.description.contains("ca-key.pem") == true)
        #expect(error?.description.contains("ca.pem exists") == true)
    }

    @Test("an invalid public host is refused with the reason")
    func invalidHost() throws {
        let directory = try TemporaryDirectory()
        let authority = DevCertificateAuthority(directory: directory.file("tls"))
        let error = #expect(throws: TLSError.self) { try authority.ensure(publicHosts: ["bad host"]) }
        #expect(
            error?.description == "public host \"bad host\" is invalid: it contains \" \"; only letters, digits, "
                + "hyphens and dots; give a DNS name (goal.example.com) or an IP address"
        )
        #expect(!FileManager.default.fileExists(atPath: authority.authorityCertificatePath))
    }
}
