import Crypto
import Foundation
public import GoalTransport
public import NIOSSL
import SwiftASN1
import X509

/// A fresh certificate authority and a server certificate for localhost, 127.0.0.1 and ::1, made at test time with
/// swift-certificates and swift-crypto, so no test depends on checked-in (and expiring) certificates.
///
/// P-256 keys, valid from an hour ago for 30 days. `TestCertificates()` makes a new, unrelated CA each time (use two
/// to test "wrong CA"); `shared` is one set made once per process.
///
/// Value type, `Sendable`, immutable.
public struct TestCertificates: Sendable {
    /// One set per test process, made on first use.
    public static let shared: TestCertificates = {
        do {
            return try TestCertificates()
        } catch {
            fatalError("cannot make test certificates: \(error)")
        }
    }()

    /// The CA certificate, PEM.
    public let caPEM: String
    /// The server (leaf) certificate, PEM.
    public let serverCertificatePEM: String
    /// The server's private key, PEM (PKCS#8).
    public let serverKeyPEM: String
    /// The CA certificate as NIOSSL parsed it.
    public let caCertificate: NIOSSLCertificate
    /// The server certificate as NIOSSL parsed it.
    public let serverCertificate: NIOSSLCertificate
    /// The server key as NIOSSL parsed it.
    public let serverKey: NIOSSLPrivateKey
    /// The SHA-256 fingerprint of the server certificate's DER (what `.pinnedFingerprint` expects).
    public let serverFingerprint: CertificateFingerprint

    /// Makes a new CA and a server certificate signed by it.
    ///
    /// - Parameter serverNames: DNS names the server certificate covers besides the default addresses.
    /// - Throws: Errors from certificate generation or parsing (not expected).
    public init(serverNames: [String] = ["localhost"]) throws {
        let now = Date()
        let validFrom = now.addingTimeInterval(-3600)
        let validUntil = now.addingTimeInterval(30 * 24 * 3600)

        let caKey = P256.Signing.PrivateKey()
        let caPrivateKey = Certificate.PrivateKey(caKey)
        let caName = try DistinguishedName {
            OrganizationName("goald tests")
            CommonName("goald test CA \(UInt32.random(in: 0...UInt32.max))")
        }
        let ca = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: caPrivateKey.publicKey,
            notValidBefore: validFrom,
            notValidAfter: validUntil,
            issuer: caName,
            subject: caName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                SubjectKeyIdentifier(hash: caPrivateKey.publicKey)
            },
            issuerPrivateKey: caPrivateKey
        )

        let serverKey = P256.Signing.PrivateKey()
        let serverPrivateKey = Certificate.PrivateKey(serverKey)
        var alternativeNames: [GeneralName] = serverNames.map { .dnsName($0) }
        alternativeNames.append(.ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])))
        alternativeNames.append(
            .ipAddress(ASN1OctetString(contentBytes: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]))
        )
        let server = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: serverPrivateKey.publicKey,
            notValidBefore: validFrom,
            notValidAfter: validUntil,
            issuer: caName,
            subject: try DistinguishedName { CommonName(serverNames.first ?? "localhost") },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames(alternativeNames)
                AuthorityKeyIdentifier(keyIdentifier: SubjectKeyIdentifier(hash: caPrivateKey.publicKey).keyIdentifier)
            },
            issuerPrivateKey: caPrivateKey
        )

        caPEM = try ca.serializeAsPEM().pemString
        serverCertificatePEM = try server.serializeAsPEM().pemString
        serverKeyPEM = serverKey.pemRepresentation
        caCertificate = try NIOSSLCertificate(bytes: Array(caPEM.utf8), format: .pem)
        serverCertificate = try NIOSSLCertificate(bytes: Array(serverCertificatePEM.utf8), format: .pem)
        self.serverKey = try NIOSSLPrivateKey(bytes: Array(serverKeyPEM.utf8), format: .pem)
        serverFingerprint = CertificateFingerprint(der: try serverCertificate.toDERBytes())
    }

    /// A TLS server configuration presenting the server certificate (for test servers).
    public var serverTLSConfiguration: TLSConfiguration {
        TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(serverCertificate)],
            privateKey: .privateKey(serverKey)
        )
    }

    /// Writes `ca.pem`, `server.pem` and `server-key.pem` (mode 0600) into `directory`.
    ///
    /// - Parameter directory: An existing directory.
    /// - Returns: The three paths.
    /// - Throws: File-system errors.
    @discardableResult
    public func write(to directory: String) throws -> (ca: String, certificate: String, key: String) {
        let paths = (
            ca: directory + "/ca.pem", certificate: directory + "/server.pem", key: directory + "/server-key.pem"
        )
        try caPEM.write(toFile: paths.ca, atomically: true, encoding: .utf8)
        try serverCertificatePEM.write(toFile: paths.certificate, atomically: true, encoding: .utf8)
        try serverKeyPEM.write(toFile: paths.key, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: paths.key)
        return paths
    }

    /// Makes a new empty directory under the system's temporary directory.
    ///
    /// - Parameter prefix: The start of the directory's name.
    /// - Returns: Its path. The caller removes it.
    /// - Throws: File-system errors.
    public static func makeTemporaryDirectory(prefix: String = "goald-tests") throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
