/// RFC 7692 permessage-deflate as goald speaks it: the negotiation on both sides of the upgrade.
///
/// goald compresses each changeset **once** and writes the same compressed bytes to every session that
/// negotiated the extension, so it never keeps an LZ77 window across messages (`server_no_context_takeover`) and
/// asks the same of clients (`client_no_context_takeover`), which also means it keeps no inflate state per
/// session. It compresses with a 15-bit window, so it declines an offer that limits `server_max_window_bits` to
/// less. Pure functions; `Sendable`.
public enum PerMessageDeflate {
    /// The extension's token.
    public static let name = "permessage-deflate"

    /// The window goald's deflater uses, in bits.
    public static let serverWindowBits = 15

    /// What goald's own clients offer.
    public static let clientOffer = "permessage-deflate; server_no_context_takeover; client_no_context_takeover"

    /// The `Sec-WebSocket-Extensions` value of a 101 that accepts the first acceptable permessage-deflate offer
    /// among `headerValues` (the request's header lines), or nil to decline (no offer, none acceptable, or a
    /// header that does not parse). RFC 7692 §7.1: an offer with an unknown, repeated or malformed parameter is
    /// declined, and the next one is tried.
    public static func serverResponse(toOffers headerValues: [String]) -> String? {
        guard let offers = ExtensionOffer.parse(headerValues) else { return nil }
        for offer in offers where offer.name == name {
            guard let limit = acceptableServerWindowLimit(offer) else { continue }
            var response = "\(name); server_no_context_takeover; client_no_context_takeover"
            if let limit { response += "; server_max_window_bits=\(limit)" }
            return response
        }
        return nil
    }

    /// Nil when the offer is declined; `.some(nil)` when accepted without a window limit, `.some(15)` when it
    /// named `server_max_window_bits=15`.
    private static func acceptableServerWindowLimit(_ offer: ExtensionOffer) -> Int?? {
        var seen: Set<String> = []
        var serverLimit: Int?
        for parameter in offer.parameters {
            guard seen.insert(parameter.name).inserted else { return nil }
            switch parameter.name {
            case "server_no_context_takeover", "client_no_context_takeover":
                guard parameter.value == nil else { return nil }
            case "server_max_window_bits":
                guard let bits = parameter.value.flatMap(windowBits) else { return nil }
                guard bits >= serverWindowBits else { return nil }
                serverLimit = bits
            case "client_max_window_bits":
                // Any window is fine: no context is taken over, and the inflater reads every window size.
                if let value = parameter.value { guard windowBits(value) != nil else { return nil } }
            default:
                return nil
            }
        }
        return .some(serverLimit)
    }

    /// What a client that offered `clientOffer` makes of a 101's `Sec-WebSocket-Extensions` lines.
    public enum ClientOutcome: Sendable, Equatable {
        /// The server did not accept the extension: messages arrive uncompressed (RSV1 never set).
        case declined
        /// Accepted: a message with RSV1 set is compressed, each on its own (no context taken over).
        case accepted
        /// The answer breaks RFC 7692 or answers something not offered: the client must fail the connection.
        case invalid(String)
    }

    /// Checks a server's answer to `clientOffer` (RFC 6455 §9.1, RFC 7692 §7.1).
    public static func clientOutcome(ofResponse headerValues: [String]) -> ClientOutcome {
        guard let answers = ExtensionOffer.parse(headerValues) else {
            return .invalid("the server's Sec-WebSocket-Extensions header does not parse")
        }
        guard let answer = answers.first else { return .declined }
        guard answers.count == 1, answer.name == name else {
            return .invalid("the server answered extensions that were not offered: \(answers.map(\.name))")
        }
        var seen: Set<String> = []
        var serverNoContextTakeover = false
        for parameter in answer.parameters {
            guard seen.insert(parameter.name).inserted else {
                return .invalid("permessage-deflate parameter \(parameter.name) appears twice")
            }
            switch parameter.name {
            case "server_no_context_takeover":
                guard parameter.value == nil else { return .invalid("server_no_context_takeover has a value") }
                serverNoContextTakeover = true
            case "client_no_context_takeover":
                guard parameter.value == nil else { return .invalid("client_no_context_takeover has a value") }
            case "server_max_window_bits":
                guard parameter.value.flatMap(windowBits) != nil else {
                    return .invalid("server_max_window_bits must be 8 to 15")
                }
            default:
                return .invalid("permessage-deflate parameter \(parameter.name) was not offered")
            }
        }
        guard serverNoContextTakeover else {
            return .invalid("the server accepted permessage-deflate without server_no_context_takeover")
        }
        return .accepted
    }

    /// RFC 7692 §7.1.2: a decimal 8 to 15 without leading zeros.
    private static func windowBits(_ text: String) -> Int? {
        guard let first = text.first, first != "0", let bits = Int(text), (8...15).contains(bits) else { return nil }
        return bits
    }
}
