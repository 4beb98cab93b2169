import Crypto
public import GoalClient

/// The SHA-256 fingerprint of a certificate's DER encoding, as used by `TransportSecurity.pinnedFingerprint`.
///
/// Value type, `Sendable`. `description` prints upper-case hex pairs separated by colons, the form
/// `openssl x509 -noout -fingerprint -sha256` prints, so a person can compare the two by eye.
public struct CertificateFingerprint: Sendable, Hashable, CustomStringConvertible {
    /// The 32 digest bytes.
    public let bytes: [UInt8]

    /// Computes the fingerprint of a DER-encoded certificate.
    ///
    /// - Parameter der: The certificate's DER bytes.
    public init(der: [UInt8]) {
        self.bytes = Array(SHA256.hash(data: der))
    }

    /// Parses 64 hex digits, optionally separated by colons (and surrounded by whitespace).
    ///
    /// - Parameter hex: The fingerprint text, for example `AB:CD:…` or `abcd…`.
    /// - Throws: `TransportFailure(.tls, …)` saying what is wrong with the text.
    public init(parsing hex: String) throws(TransportFailure) {
        let digits = hex.unicodeScalars.filter { $0 != ":" && !$0.properties.isWhitespace }
        guard digits.count == 64 else {
            throw TransportFailure(
                .tls,
                "pinned fingerprint must be a SHA-256 in hex (64 digits, colons allowed); got \(digits.count) digits"
            )
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        var high: UInt8?
        for scalar in digits {
            guard let nibble = Self.nibble(scalar) else {
                throw TransportFailure(.tls, "pinned fingerprint contains \"\(scalar)\", which is not a hex digit")
            }
            if let h = high {
                bytes.append(h << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        self.bytes = bytes
    }

    public var description: String {
        bytes.map { byte in
            let text = String(byte, radix: 16, uppercase: true)
            return byte < 16 ? "0" + text : text
        }.joined(separator: ":")
    }

    private static func nibble(_ scalar: Unicode.Scalar) -> UInt8? {
        switch scalar.value {
        case 0x30...0x39: UInt8(scalar.value - 0x30)
        case 0x41...0x46: UInt8(scalar.value - 0x41 + 10)
        case 0x61...0x66: UInt8(scalar.value - 0x61 + 10)
        default: nil
        }
    }
}
