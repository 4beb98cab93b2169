public import GoalClient
public import Logging
import NIOCore
public import NIOSSL

/// One `TransportSecurity` turned into a ready `NIOSSLContext`, built once and shared by every connection.
///
/// Making the context reads and parses the CA file, so it happens once, off the event loop (when the transport is
/// made); each connection then only makes a cheap `NIOSSLClientHandler`. Also used by GoalTestSupport's raw clients,
/// so tests and goal-client trust certificates the same way.
///
/// Threading: immutable and `Sendable`; `makeHandler` must be called on the event loop of the channel the handler
/// goes into (it is, inside a channel initializer). Lifetime: hold it as long as connections are made.
public final class ClientTLSContext: Sendable {
    /// The trust decision this context implements.
    public let security: TransportSecurity
    private let sslContext: NIOSSLContext
    private let pinned: CertificateFingerprint?

    /// Builds the TLS context for a trust decision.
    ///
    /// - Parameters:
    ///   - security: How the server's certificate is trusted.
    ///   - logger: Receives a warning when `security` is `.insecure`.
    /// - Throws: `TransportFailure(.tls, …)` when the CA file cannot be read or holds no certificate, or the pinned
    ///   fingerprint is malformed.
    public init(
        security: TransportSecurity,
        logger: Logger = Logger(label: "goal.transport", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws(TransportFailure) {
        self.security = security
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.minimumTLSVersion = .tlsv12
        var pinned: CertificateFingerprint?
        switch security {
        case .caFile(let path):
            configuration.trustRoots = .certificates(try Self.loadCertificates(path: path))
        case .caPEM(let pem):
            configuration.trustRoots = .certificates(try Self.loadCertificates(pem: pem))
        case .pinnedFingerprint(let text):
            pinned = try CertificateFingerprint(parsing: text)
            // The custom verification callback replaces BoringSSL's chain check; it only runs when verification is on.
            configuration.certificateVerification = .noHostnameVerification
        case .systemTrust:
            configuration.trustRoots = .default
        case .insecure:
            configuration.certificateVerification = .none
            logger.warning(
                "TLS certificate verification is disabled (insecure mode): use only for development",
                metadata: ["goal.transport.security": "insecure"]
            )
        }
        self.pinned = pinned
        do {
            self.sslContext = try NIOSSLContext(configuration: configuration)
        } catch {
            throw TransportFailure(.tls, "cannot set up TLS: \(error)")
        }
    }

    /// Makes the TLS handler for one connection to `endpoint`.
    ///
    /// - Parameters:
    ///   - endpoint: The server; its host name is sent as SNI and checked against the certificate (IP literals are
    ///     checked against the certificate's IP addresses, with no SNI).
    ///   - observer: Records what the pinned-fingerprint check saw, so a mismatch can be reported precisely.
    /// - Returns: A fresh handler to add first in the channel's pipeline.
    /// - Throws: NIOSSL's error when the handler cannot be made (for example an invalid SNI name).
    public func makeHandler(
        for endpoint: ServerEndpoint,
        observer: TLSHandshakeObserver = TLSHandshakeObserver()
    ) throws -> NIOSSLClientHandler {
        let serverHostname = endpoint.hostIsIPAddress ? nil : endpoint.host
        guard let pinned else {
            return try NIOSSLClientHandler(context: sslContext, serverHostname: serverHostname)
        }
        let verify: NIOSSLCustomVerificationCallback = { certificates, promise in
            // A certificate that cannot be encoded cannot match the pin: it fails the handshake as a mismatch.
            guard let leaf = certificates.first, let der = try? leaf.toDERBytes() else {
                observer.pinMismatch = (expected: pinned, got: nil)
                promise.succeed(.failed)
                return
            }
            let got = CertificateFingerprint(der: der)
            if got == pinned {
                promise.succeed(.certificateVerified)
            } else {
                observer.pinMismatch = (expected: pinned, got: got)
                promise.succeed(.failed)
            }
        }
        return try NIOSSLClientHandler(
            context: sslContext,
            serverHostname: serverHostname,
            customVerificationCallback: verify
        )
    }

    private static func loadCertificates(path: String) throws(TransportFailure) -> [NIOSSLCertificate] {
        let certificates: [NIOSSLCertificate]
        do {
            certificates = try NIOSSLCertificate.fromPEMFile(path)
        } catch {
            throw TransportFailure(.tls, "cannot read CA file \(path): \(error); pass --ca-file with a PEM file")
        }
        guard !certificates.isEmpty else {
            throw TransportFailure(.tls, "CA file \(path) holds no PEM certificate")
        }
        return certificates
    }

    private static func loadCertificates(pem: String) throws(TransportFailure) -> [NIOSSLCertificate] {
        let certificates: [NIOSSLCertificate]
        do {
            certificates = try NIOSSLCertificate.fromPEMBytes(Array(pem.utf8))
        } catch {
            throw TransportFailure(.tls, "cannot parse the CA PEM text: \(error)")
        }
        guard !certificates.isEmpty else {
            throw TransportFailure(.tls, "the CA PEM text holds no certificate")
        }
        return certificates
    }
}

/// What one TLS handshake's certificate check saw, for precise error messages.
///
/// Threading: confined to the event loop of the channel whose handler records into it (the verification callback
/// runs there, and so do the handlers that read it). Lifetime: one per connection attempt.
public final class TLSHandshakeObserver {
    /// Set when a pinned fingerprint did not match: the expected value and the leaf's (nil if it had none).
    public var pinMismatch: (expected: CertificateFingerprint, got: CertificateFingerprint?)?

    public init() {}
}
