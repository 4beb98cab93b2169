import Crypto
public import Foundation
public import NIOSSL
import SwiftASN1
import X509

/// The listener's certificate chain and private key, loaded once from a `ServerConfiguration.TLSSource`, plus what
/// clients need to trust it: the development CA's file (when generated) and the leaf's SHA-256 fingerprint.
///
/// Value type, `Sendable` (NIOSSL's certificate and key objects are immutable). Loading does blocking file IO and
/// may generate keys: call it at start and on SIGHUP, off event loops. `makeServerContext()` builds the one
/// `NIOSSLContext` the listener shares; channels each get a fresh `NIOSSLServerHandler` from it.
public struct TLSMaterial: Sendable {
    /// The server certificate first, then any intermediates.
    public let certificateChain: [NIOSSLCertificate]
    /// The leaf's private key.
    public let privateKey: NIOSSLPrivateKey
    /// The generated development CA clients trust (`goal-client --ca-file`); nil for operator-provided material.
    public let authorityCertificatePath: String?
    /// SHA-256 of the leaf certificate's DER bytes, lowercase hex (64 characters): `goal-client --fingerprint`.
    public let fingerprint: String
    /// When the leaf expires.
    public let notValidAfter: Date
    /// Where the chain came from, for messages ("<state>/tls/server.pem", a file, or "inline PEM").
    public let certificateOrigin: String

    /// Loads the material `configuration.tls` names; for `.generated`, first makes or refreshes the development CA
    /// and server certificate under `configuration.generatedTLSDirectory` (see `DevCertificateAuthority`).
    /// - Parameter now: The current time (tests pass another).
    /// - Throws: `TLSError` naming the file and what is wrong.
    public static func load(for configuration: ServerConfiguration, now: Date = Date()) throws(TLSError) -> TLSMaterial
    {
        switch configuration.tls {
        case .generated:
            let authority = DevCertificateAuthority(directory: configuration.generatedTLSDirectory)
            try authority.ensure(publicHosts: configuration.publicHosts, now: now)
            return try load(
                certificatePEM: try readText(authority.serverCertificatePath),
                certificateOrigin: authority.serverCertificatePath,
                keyPEM: try readText(authority.serverKeyPath),
                keyOrigin: authority.serverKeyPath,
                authorityCertificatePath: authority.authorityCertificatePath
            )
        case .files(let certificate, let privateKey):
            return try load(
                certificatePEM: try readText(certificate),
                certificateOrigin: certificate,
                keyPEM: try readText(privateKey),
                keyOrigin: privateKey,
                authorityCertificatePath: nil
            )
        case .pem(let certificateChain, let privateKey):
            return try load(
                certificatePEM: certificateChain,
                certificateOrigin: "the inline certificate PEM (tls.certificatePEM)",
                keyPEM: privateKey.value,
                keyOrigin: "the inline private key PEM (tls.privateKeyPEM)",
                authorityCertificatePath: nil
            )
        }
    }

    /// The server TLS configuration: TLS 1.2 or later, no client certificates.
    public var serverConfiguration: TLSConfiguration {
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: certificateChain.map { .certificate($0) },
            privateKey: .privateKey(privateKey)
        )
        configuration.minimumTLSVersion = .tlsv12
        return configuration
    }

    /// Builds the context every connection's `NIOSSLServerHandler` is made from.
    /// - Throws: `TLSError.contextFailed` when BoringSSL refuses the chain or key.
    public func makeServerContext() throws(TLSError) -> NIOSSLContext {
        do {
            return try NIOSSLContext(configuration: serverConfiguration)
        } catch {
            throw .contextFailed("\(error)")
        }
    }

    private static func load(
        certificatePEM: String,
        certificateOrigin: String,
        keyPEM: String,
        keyOrigin: String,
        authorityCertificatePath: String?
    ) throws(TLSError) -> TLSMaterial {
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMBytes(Array(certificatePEM.utf8))
        } catch {
            throw .invalidPEM(path: certificateOrigin, expected: "PEM certificates", detail: "\(error)")
        }
        guard let leaf = chain.first else { throw .emptyChain(path: certificateOrigin) }
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(bytes: Array(keyPEM.utf8), format: .pem)
        } catch {
            throw .invalidPEM(path: keyOrigin, expected: "a PEM private key", detail: "\(error)")
        }
        let leafDER: [UInt8]
        let parsedLeaf: Certificate
        do {
            leafDER = try leaf.toDERBytes()
            parsedLeaf = try Certificate(derEncoded: leafDER)
        } catch {
            throw .invalidPEM(path: certificateOrigin, expected: "an X.509 certificate", detail: "\(error)")
        }
        // swift-certificates reads P-256/384/521, RSA and Ed25519 keys; a key it cannot read is left to BoringSSL.
        if let parsedKey = try? Certificate.PrivateKey(pemEncoded: keyPEM), parsedKey.publicKey != parsedLeaf.publicKey
        {
            throw .keyMismatch(certificate: certificateOrigin, key: keyOrigin)
        }
        return TLSMaterial(
            certificateChain: chain,
            privateKey: key,
            authorityCertificatePath: authorityCertificatePath,
            fingerprint: SHA256.hash(data: leafDER).map { String(format: "%02x", $0) }.joined(),
            notValidAfter: parsedLeaf.notValidAfter,
            certificateOrigin: certificateOrigin
        )
    }

    private static func readText(_ path: String) throws(TLSError) -> String {
        do {
            return String(decoding: try OwnerOnlyFile.read(path), as: UTF8.self)
        } catch {
            throw .unreadable(path: path, reason: error.reason)
        }
    }
}
