public import GoalClient
import NIOCore
import NIOPosix
import NIOSSL

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns the errors NIO and NIOSSL raise while opening a connection into a `TransportFailure` a person can act on.
///
/// Pure functions; thread-safe. Shared by `WebSocketTransport` and GoalTestSupport's raw clients.
public enum FailureClassifier {
    /// Classifies an error raised before the WebSocket upgrade completed.
    ///
    /// - Parameters:
    ///   - error: What NIO reported (connect, DNS, TLS or I/O error).
    ///   - endpoint: The server that was being reached, named in the message.
    ///   - security: The trust in use, to say how to fix an untrusted certificate.
    ///   - observer: What the pinned-fingerprint check saw, if anything.
    /// - Returns: The failure, with `.timeout`, `.tls` or `.cannotConnect`.
    public static func failure(
        for error: any Error,
        endpoint: ServerEndpoint,
        security: TransportSecurity,
        observer: TLSHandshakeObserver?
    ) -> TransportFailure {
        if let mismatch = observer?.pinMismatch {
            let got = mismatch.got.map { "\($0)" } ?? "no certificate"
            return TransportFailure(
                .tls,
                "fingerprint mismatch: expected \(mismatch.expected) got \(got) from \(endpoint.hostHeader)"
            )
        }
        switch error {
        case ChannelError.connectTimeout(let amount):
            let millis = amount.nanoseconds / 1_000_000
            return TransportFailure(.timeout, "no TCP connection to \(endpoint.hostHeader) within \(millis) ms")
        case let error as NIOConnectionError:
            return connectionFailure(error, endpoint: endpoint)
        case let error as IOError:
            return TransportFailure(.cannotConnect, "cannot connect to \(endpoint.hostHeader): \(describe(error))")
        case let error as NIOSSLError:
            return tlsFailure(error, endpoint: endpoint, security: security)
        case let error as NIOSSLExtraError where error == .failedToValidateHostname:
            return TransportFailure(
                .tls,
                "certificate does not cover \(endpoint.host): connect with a name or address the certificate lists "
                    + "(goald --public-host adds names)"
            )
        case let error as NIOSSLExtraError:
            return TransportFailure(.tls, "TLS handshake with \(endpoint.hostHeader) failed: \(error)")
        default:
            return TransportFailure(.cannotConnect, "cannot connect to \(endpoint.hostHeader): \(error)")
        }
    }

    private static func connectionFailure(_ error: NIOConnectionError, endpoint: ServerEndpoint) -> TransportFailure {
        if error.connectionErrors.isEmpty, error.dnsAError != nil || error.dnsAAAAError != nil {
            return TransportFailure(.cannotConnect, "cannot resolve host \(endpoint.host): check the server URL")
        }
        let reasons = error.connectionErrors.map { failure in
            let reason = (failure.error as? IOError).map(describe) ?? "\(failure.error)"
            return "\(failure.target): \(reason)"
        }
        let text = reasons.isEmpty ? "\(error)" : reasons.joined(separator: "; ")
        return TransportFailure(.cannotConnect, "cannot connect to \(endpoint.hostHeader): \(text)")
    }

    private static func tlsFailure(
        _ error: NIOSSLError,
        endpoint: ServerEndpoint,
        security: TransportSecurity
    ) -> TransportFailure {
        let text = "\(error)"
        if text.contains("CERTIFICATE_VERIFY_FAILED") {
            let problem =
                switch security {
                case .systemTrust:
                    "the system's CA store does not verify (another CA, expired or not yet valid)"
                case .caFile(let path):
                    "does not verify against the CA in \(path) (another CA, expired or not yet valid)"
                default:
                    "does not verify against the given CA (another CA, expired or not yet valid)"
                }
            return TransportFailure(
                .tls,
                "certificate not trusted: \(endpoint.hostHeader) presented a certificate that \(problem); "
                    + "pass --ca-file with goald's CA certificate, or pin its SHA-256 fingerprint"
            )
        }
        switch error {
        case .uncleanShutdown:
            return TransportFailure(
                .tls,
                "\(endpoint.hostHeader) closed the connection during the TLS handshake: is it a goald TLS port?"
            )
        case .handshakeFailed:
            return TransportFailure(
                .tls,
                "TLS handshake with \(endpoint.hostHeader) failed (is it a goald TLS port?): \(text)"
            )
        default:
            return TransportFailure(.tls, "TLS error with \(endpoint.hostHeader): \(text)")
        }
    }

    private static func describe(_ error: IOError) -> String {
        switch error.errnoCode {
        case ECONNREFUSED: "connection refused (is goald running on this port?)"
        case ENETUNREACH, EHOSTUNREACH: "network unreachable"
        case ECONNRESET: "connection reset by peer"
        case EADDRNOTAVAIL: "local address not available"
        default: "\(error)"
        }
    }
}
