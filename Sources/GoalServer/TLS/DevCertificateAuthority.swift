import Crypto
public import Foundation
import SwiftASN1
import X509

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The development certificate authority goald makes on first start when the operator gives no certificate
/// (docs/RULES.md "Security"): a self-signed P-256 CA and a server certificate it signs, under `<state>/tls`.
///
/// `ensure(publicHosts:now:)` creates the CA once (`ca.pem`, `ca-key.pem` mode 0600) and never replaces it, since
/// clients trust it by file; it (re-)issues the server certificate (`server.pem`, `server-key.pem` mode 0600) when
/// there is none, when the set of names changed, when it expires within `renewalWindow`, or when it is unreadable,
/// mismatched or signed by another CA. Otherwise the files are reused untouched.
///
/// Value type, `Sendable`; it holds only paths. Calls do blocking file IO: run them off event loops. Two processes
/// calling `ensure` on one directory at once is not supported (the daemon's state lock prevents it).
public struct DevCertificateAuthority: Sendable {
    /// The directory holding the four files.
    public let directory: String

    /// A server certificate expiring within this many seconds (30 days) is re-issued.
    public static let renewalWindow: TimeInterval = 30 * 24 * 3600
    /// How long an issued server certificate is valid (397 days, the longest browsers accept).
    public static let serverValidity: TimeInterval = 397 * 24 * 3600
    /// How long the CA is valid (20 years).
    public static let authorityValidity: TimeInterval = 20 * 365 * 24 * 3600

    /// - Parameter directory: Usually `ServerConfiguration.generatedTLSDirectory`.
    public init(directory: String) { self.directory = directory }

    /// The CA certificate clients trust (`goal-client --ca-file`).
    public var authorityCertificatePath: String { directory + "/ca.pem" }
    /// The CA's private key (0600).
    public var authorityKeyPath: String { directory + "/ca-key.pem" }
    /// The server certificate (leaf only; clients verify it against `ca.pem`).
    public var serverCertificatePath: String { directory + "/server.pem" }
    /// The server's private key (0600).
    public var serverKeyPath: String { directory + "/server-key.pem" }

    /// What `ensure` did. Value type, `Sendable`.
    public struct Outcome: Hashable, Sendable {
        /// True when the CA was made by this call.
        public var authorityCreated: Bool
        /// Why a server certificate was issued by this call; nil when the existing one was reused.
        public var serverIssued: IssueReason?
    }

    /// Why the server certificate was (re-)issued.
    public enum IssueReason: String, Hashable, Sendable {
        case missing
        case hostsChanged = "hosts_changed"
        case expiring
        case unusable
    }

    /// Makes sure a CA and a valid server certificate for the loopback names plus `publicHosts` exist.
    /// - Parameters:
    ///   - publicHosts: Extra DNS names or IP addresses the server certificate covers.
    ///   - now: The current time (tests pass another).
    /// - Returns: What was created.
    /// - Throws: `TLSError`: `invalidHost`, `incompleteAuthority`, `invalidPEM` (a damaged CA), `unwritable`,
    ///   `generationFailed`.
    @discardableResult
    public func ensure(publicHosts: [String], now: Date = Date()) throws(TLSError) -> Outcome {
        let names = try CertificateHost.serverNames(publicHosts: publicHosts)
        do {
            try OwnerOnlyFile.createDirectory(directory)
        } catch {
            throw .unwritable(path: error.path, reason: error.reason)
        }
        let (authority, authorityCreated) = try loadOrCreateAuthority(now: now)
        let reason = serverIssueReason(names: names, authority: authority, now: now)
        if reason != nil {
            try issueServerCertificate(names: names, authority: authority, now: now)
        }
        return Outcome(authorityCreated: authorityCreated, serverIssued: reason)
    }

    /// The names the current server certificate covers; empty when there is none or it is unreadable.
    public func serverCertificateNames() -> Set<CertificateHost> {
        // Unreadable counts as none, as documented: the next start re-issues it.
        guard let certificate = try? Self.readCertificate(serverCertificatePath) else { return [] }
        return Self.names(of: certificate)
    }

    private struct Authority {
        var certificate: Certificate
        var key: Certificate.PrivateKey
    }

    private func loadOrCreateAuthority(now: Date) throws(TLSError) -> (Authority, Bool) {
        switch (OwnerOnlyFile.exists(authorityCertificatePath), OwnerOnlyFile.exists(authorityKeyPath)) {
        case (true, true):
            let certificate = try Self.readCertificate(authorityCertificatePath)
            let key = try Self.readKey(authorityKeyPath)
            guard key.publicKey == certificate.publicKey else {
                throw .keyMismatch(certificate: authorityCertificatePath, key: authorityKeyPath)
            }
            return (Authority(certificate: certificate, key: key), false)
        case (true, false):
            throw .incompleteAuthority(present: authorityCertificatePath, missing: authorityKeyPath)
        case (false, true):
            throw .incompleteAuthority(present: authorityKeyPath, missing: authorityCertificatePath)
        case (false, false):
            let authority = try makeAuthority(now: now)
            try Self.write(authority.key, to: authorityKeyPath, exclusive: true)
            try Self.write(authority.certificate, to: authorityCertificatePath, exclusive: true)
            return (authority, true)
        }
    }

    private func makeAuthority(now: Date) throws(TLSError) -> Authority {
        let key = Certificate.PrivateKey(P256.Signing.PrivateKey())
        do {
            let name = try DistinguishedName {
                OrganizationName("goald")
                CommonName("goald development CA")
            }
            let extensions = try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                SubjectKeyIdentifier(hash: key.publicKey)
            }
            let certificate = try Certificate(
                version: .v3,
                serialNumber: Certificate.SerialNumber(),
                publicKey: key.publicKey,
                notValidBefore: now.addingTimeInterval(-3600),
                notValidAfter: now.addingTimeInterval(Self.authorityValidity),
                issuer: name,
                subject: name,
                extensions: extensions,
                issuerPrivateKey: key
            )
            return Authority(certificate: certificate, key: key)
        } catch {
            throw .generationFailed("the CA: \(error)")
        }
    }

    private func serverIssueReason(names: [CertificateHost], authority: Authority, now: Date) -> IssueReason? {
        guard OwnerOnlyFile.exists(serverCertificatePath) || OwnerOnlyFile.exists(serverKeyPath) else {
            return .missing
        }
        // A certificate or key that cannot be read is unusable: it is re-issued, which is the answer to any error.
        guard let certificate = try? Self.readCertificate(serverCertificatePath),
            let key = try? Self.readKey(serverKeyPath),
            key.publicKey == certificate.publicKey,
            certificate.issuer == authority.certificate.subject,
            authority.certificate.publicKey.isValidSignature(certificate.signature, for: certificate)
        else {
            return .unusable
        }
        guard Self.names(of: certificate) == Set(names) else { return .hostsChanged }
        guard certificate.notValidAfter > now.addingTimeInterval(Self.renewalWindow) else { return .expiring }
        return nil
    }

    private func issueServerCertificate(names: [CertificateHost], authority: Authority, now: Date) throws(TLSError) {
        let key = Certificate.PrivateKey(P256.Signing.PrivateKey())
        let certificate: Certificate
        do {
            let subject = try DistinguishedName {
                OrganizationName("goald")
                CommonName("goald server")
            }
            let authorityKeyID = try authority.certificate.extensions.subjectKeyIdentifier?.keyIdentifier
            let extensions = try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames(names.map(\.generalName))
                SubjectKeyIdentifier(hash: key.publicKey)
                if let authorityKeyID { AuthorityKeyIdentifier(keyIdentifier: authorityKeyID) }
            }
            certificate = try Certificate(
                version: .v3,
                serialNumber: Certificate.SerialNumber(),
                publicKey: key.publicKey,
                notValidBefore: now.addingTimeInterval(-3600),
                notValidAfter: min(
                    now.addingTimeInterval(Self.serverValidity),
                    authority.certificate.notValidAfter
                ),
                issuer: authority.certificate.subject,
                subject: subject,
                extensions: extensions,
                issuerPrivateKey: authority.key
            )
        } catch {
            throw .generationFailed("the server certificate: \(error)")
        }
        try Self.write(key, to: serverKeyPath, exclusive: false)
        try Self.write(certificate, to: serverCertificatePath, exclusive: false)
    }

    static func names(of certificate: Certificate) -> Set<CertificateHost> {
        // A malformed extension names no host: the certificate then does not cover the configured names.
        guard let alternatives = try? certificate.extensions.subjectAlternativeNames else { return [] }
        return Set(alternatives.compactMap(CertificateHost.init))
    }

    static func readCertificate(_ path: String) throws(TLSError) -> Certificate {
        let text = try readText(path)
        do {
            return try Certificate(pemEncoded: text)
        } catch {
            throw .invalidPEM(path: path, expected: "a PEM certificate", detail: "\(error)")
        }
    }

    static func readKey(_ path: String) throws(TLSError) -> Certificate.PrivateKey {
        let text = try readText(path)
        do {
            return try Certificate.PrivateKey(pemEncoded: text)
        } catch {
            throw .invalidPEM(path: path, expected: "a PEM private key", detail: "\(error)")
        }
    }

    private static func readText(_ path: String) throws(TLSError) -> String {
        do {
            return String(decoding: try OwnerOnlyFile.read(path), as: UTF8.self)
        } catch {
            throw .unreadable(path: path, reason: error.reason)
        }
    }

    private static func write(_ key: Certificate.PrivateKey, to path: String, exclusive: Bool) throws(TLSError) {
        let pem: String
        do {
            pem = try key.serializeAsPEM().pemString
        } catch {
            throw .generationFailed("serializing \(path): \(error)")
        }
        try write(Array((pem + "\n").utf8), to: path, mode: 0o600, exclusive: exclusive)
    }

    private static func write(_ certificate: Certificate, to path: String, exclusive: Bool) throws(TLSError) {
        let pem: String
        do {
            pem = try certificate.serializeAsPEM().pemString
        } catch {
            throw .generationFailed("serializing \(path): \(error)")
        }
        try write(Array((pem + "\n").utf8), to: path, mode: 0o644, exclusive: exclusive)
    }

    private static func write(_ bytes: [UInt8], to path: String, mode: Int, exclusive: Bool) throws(TLSError) {
        do throws(FileStepError) {
            if exclusive {
                try OwnerOnlyFile.writeExclusively(bytes, to: path)
                guard chmod(path, mode_t(mode)) == 0 else { throw FileStepError(path: path, reason: "chmod failed") }
            } else {
                try OwnerOnlyFile.replace(path, with: bytes, mode: mode)
            }
        } catch {
            throw .unwritable(path: error.path, reason: error.reason)
        }
    }
}
