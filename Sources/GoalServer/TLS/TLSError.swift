/// Why TLS material could not be generated, loaded or turned into a server context. Every message names the file
/// and says what an operator can do.
///
/// Value type, `Sendable`; compare `code` to tell kinds apart.
public struct TLSError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure, stable for matching.
    public enum Code: String, Hashable, Sendable {
        case unreadable
        case unwritable
        case invalidPEM = "invalid_pem"
        case emptyChain = "empty_chain"
        case keyMismatch = "key_mismatch"
        case incompleteAuthority = "incomplete_authority"
        case invalidHost = "invalid_host"
        case generationFailed = "generation_failed"
        case contextFailed = "context_failed"
    }

    private enum Kind: Hashable, Sendable {
        case unreadable(path: String, reason: String)
        case unwritable(path: String, reason: String)
        case invalidPEM(path: String, expected: String, detail: String)
        case emptyChain(path: String)
        case keyMismatch(certificate: String, key: String)
        case incompleteAuthority(present: String, missing: String)
        case invalidHost(host: String, reason: String)
        case generationFailed(detail: String)
        case contextFailed(detail: String)
    }

    private let kind: Kind

    private init(_ kind: Kind) { self.kind = kind }

    /// A certificate or key file is missing or cannot be read.
    public static func unreadable(path: String, reason: String) -> TLSError {
        TLSError(.unreadable(path: path, reason: reason))
    }
    /// Generated material could not be written.
    public static func unwritable(path: String, reason: String) -> TLSError {
        TLSError(.unwritable(path: path, reason: reason))
    }
    /// A file (or inline value) does not hold the PEM it should.
    public static func invalidPEM(path: String, expected: String, detail: String) -> TLSError {
        TLSError(.invalidPEM(path: path, expected: expected, detail: detail))
    }
    /// A certificate file holds no certificate.
    public static func emptyChain(path: String) -> TLSError { TLSError(.emptyChain(path: path)) }
    /// The private key does not belong to the first certificate of the chain.
    public static func keyMismatch(certificate: String, key: String) -> TLSError {
        TLSError(.keyMismatch(certificate: certificate, key: key))
    }
    /// Only one of the development CA's two files exists.
    public static func incompleteAuthority(present: String, missing: String) -> TLSError {
        TLSError(.incompleteAuthority(present: present, missing: missing))
    }
    /// A `publicHosts` entry is neither a DNS name nor an IP address.
    public static func invalidHost(_ host: String, reason: String) -> TLSError {
        TLSError(.invalidHost(host: host, reason: reason))
    }
    /// Key or certificate generation failed inside swift-certificates or swift-crypto.
    public static func generationFailed(_ detail: String) -> TLSError { TLSError(.generationFailed(detail: detail)) }
    /// NIOSSL refused the chain and key.
    public static func contextFailed(_ detail: String) -> TLSError { TLSError(.contextFailed(detail: detail)) }

    public var code: Code {
        switch kind {
        case .unreadable: .unreadable
        case .unwritable: .unwritable
        case .invalidPEM: .invalidPEM
        case .emptyChain: .emptyChain
        case .keyMismatch: .keyMismatch
        case .incompleteAuthority: .incompleteAuthority
        case .invalidHost: .invalidHost
        case .generationFailed: .generationFailed
        case .contextFailed: .contextFailed
        }
    }

    public var description: String {
        switch kind {
        case .unreadable(let path, let reason):
            "cannot read \(path): \(reason). Check the path and that goald's user may read it"
        case .unwritable(let path, let reason):
            "cannot write \(path): \(reason). Check that goald's user owns the state directory"
        case .invalidPEM(let path, let expected, let detail):
            "\(path) does not hold \(expected) (\(detail)); give a PEM file"
        case .emptyChain(let path):
            "\(path) holds no certificate; it must start with the server certificate, then any intermediates"
        case .keyMismatch(let certificate, let key):
            "the private key in \(key) does not belong to the certificate in \(certificate); give the matching pair"
        case .incompleteAuthority(let present, let missing):
            "\(present) exists but \(missing) does not; restore it, or delete both to make a new development CA "
                + "(clients must then trust the new ca.pem)"
        case .invalidHost(let host, let reason):
            "public host \"\(host)\" is invalid: \(reason); give a DNS name (goal.example.com) or an IP address"
        case .generationFailed(let detail):
            "generating the development certificates failed: \(detail)"
        case .contextFailed(let detail):
            "the TLS library refused the certificate chain or key: \(detail)"
        }
    }
}
