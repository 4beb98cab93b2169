/// How a `WebSocketTransport` decides to trust the server's certificate. TLS itself is always on.
///
/// Value type, `Sendable`. The chosen trust is turned into a `ClientTLSContext` once, when the transport is made.
public enum TransportSecurity: Sendable, Hashable {
    /// Trust the CA certificates in a PEM file (goald's generated CA, or the operator's), and verify that the
    /// certificate names the host connected to.
    case caFile(String)
    /// Like `caFile`, with the PEM text given directly (tests, configuration stored elsewhere).
    case caPEM(String)
    /// Accept exactly one leaf certificate: the one whose DER encoding has this SHA-256 fingerprint, written in hex
    /// with or without colons (as `openssl x509 -fingerprint -sha256` prints it). No CA or host name is checked.
    case pinnedFingerprint(String)
    /// Trust the system's CA store and verify the host name: for a goald behind a publicly trusted certificate.
    case systemTrust
    /// Accept any certificate. A development switch only: anyone on the path can read and change the traffic.
    /// The transport logs a warning when it is made with this.
    case insecure
}
