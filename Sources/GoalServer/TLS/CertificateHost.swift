import Foundation
import SwiftASN1
public import X509

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One name a server certificate covers: a DNS name or an IP address, parsed from text such as `localhost`,
/// `goal.example.com`, `192.0.2.7`, `::1` or `[2001:db8::1]`.
///
/// Value type, `Sendable`. DNS names are lowercased; IP addresses are kept as their network-order bytes, so two
/// spellings of one address are equal.
public enum CertificateHost: Hashable, Sendable, CustomStringConvertible {
    case dnsName(String)
    case ipAddress([UInt8])

    /// The names every generated server certificate covers: localhost, 127.0.0.1 and ::1.
    public static let loopback: [CertificateHost] = [
        .dnsName("localhost"), .ipAddress([127, 0, 0, 1]), .ipAddress(ipv6Loopback),
    ]

    private static let ipv6Loopback: [UInt8] = Array(repeating: 0, count: 15) + [1]

    /// Parses a host.
    /// - Throws: `TLSError.invalidHost` naming what is wrong.
    public init(parsing text: String) throws(TLSError) {
        var host = text.trimmingCharacters(in: .whitespaces)
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if let bytes = Self.ipBytes(host) {
            self = .ipAddress(bytes)
            return
        }
        self = .dnsName(try Self.validatedDNSName(host, original: text))
    }

    /// The loopback names plus `publicHosts`, without duplicates, in that order.
    public static func serverNames(publicHosts: [String]) throws(TLSError) -> [CertificateHost] {
        var names = loopback
        for text in publicHosts {
            let host = try CertificateHost(parsing: text)
            if !names.contains(host) { names.append(host) }
        }
        return names
    }

    /// The name as a subject alternative name.
    public var generalName: GeneralName {
        switch self {
        case .dnsName(let name): .dnsName(name)
        case .ipAddress(let bytes): .ipAddress(ASN1OctetString(contentBytes: bytes[...]))
        }
    }

    /// Reads a subject alternative name back; nil for kinds goald never issues.
    public init?(_ name: GeneralName) {
        switch name {
        case .dnsName(let text): self = .dnsName(text.lowercased())
        case .ipAddress(let octets): self = .ipAddress(Array(octets.bytes))
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .dnsName(let name): return name
        case .ipAddress(let bytes):
            let family = bytes.count == 4 ? AF_INET : AF_INET6
            var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            let text = bytes.withUnsafeBytes { raw in
                inet_ntop(family, raw.baseAddress, &buffer, socklen_t(buffer.count))
            }
            guard text != nil else { return bytes.map(String.init).joined(separator: ".") }
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    private static func ipBytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { Array($0) }
        }
        return nil
    }

    private static func validatedDNSName(_ host: String, original: String) throws(TLSError) -> String {
        let name = host.lowercased()
        guard !name.isEmpty else { throw .invalidHost(original, reason: "it is empty") }
        guard name.utf8.count <= 253 else { throw .invalidHost(original, reason: "longer than 253 characters") }
        for label in name.split(separator: ".", omittingEmptySubsequences: false) {
            guard !label.isEmpty else {
                throw .invalidHost(original, reason: "it has an empty label (\"..\" or a dot at an end)")
            }
            guard label.utf8.count <= 63 else {
                throw .invalidHost(original, reason: "the label \"\(label)\" is longer than 63 characters")
            }
            guard label.first != "-", label.last != "-" else {
                throw .invalidHost(original, reason: "the label \"\(label)\" starts or ends with a hyphen")
            }
            if let bad = label.first(where: { !($0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "*")) })
            {
                throw .invalidHost(original, reason: "it contains \"\(bad)\"; only letters, digits, hyphens and dots")
            }
        }
        return name
    }
}
