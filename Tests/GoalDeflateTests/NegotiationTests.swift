import GoalTestSlots
import Testing

@testable import GoalDeflate

/// RFC 7692 §7.1 negotiation as a pure function: which offers goald accepts, what it answers, and what a client
/// accepts back.
@Suite("permessage-deflate negotiation", .slotted)
struct NegotiationTests {
    private let accepted = "permessage-deflate; server_no_context_takeover; client_no_context_takeover"

    @Test("no header, an empty one, or only other extensions: declined")
    func noOffer() {
        #expect(PerMessageDeflate.serverResponse(toOffers: []) == nil)
        #expect(PerMessageDeflate.serverResponse(toOffers: [""]) == nil)
        #expect(PerMessageDeflate.serverResponse(toOffers: ["x-webkit-deflate-frame"]) == nil)
    }

    @Test("what browsers and goal-client offer is accepted with no context takeover both ways")
    func commonOffers() {
        #expect(PerMessageDeflate.serverResponse(toOffers: ["permessage-deflate"]) == accepted)
        // Chrome and Firefox
        #expect(PerMessageDeflate.serverResponse(toOffers: ["permessage-deflate; client_max_window_bits"]) == accepted)
        #expect(PerMessageDeflate.serverResponse(toOffers: [PerMessageDeflate.clientOffer]) == accepted)
        #expect(
            PerMessageDeflate.serverResponse(toOffers: ["PerMessage-Deflate ;Client_No_Context_Takeover"]) == accepted
        )
    }

    @Test("server_max_window_bits: 15 is echoed; a smaller window declines that offer and the next one is tried")
    func serverWindow() {
        #expect(
            PerMessageDeflate.serverResponse(toOffers: ["permessage-deflate; server_max_window_bits=15"])
                == accepted + "; server_max_window_bits=15"
        )
        #expect(
            PerMessageDeflate.serverResponse(toOffers: [#"permessage-deflate; server_max_window_bits="15""#])
                == accepted + "; server_max_window_bits=15"
        )
        #expect(PerMessageDeflate.serverResponse(toOffers: ["permessage-deflate; server_max_window_bits=10"]) == nil)
        #expect(
            PerMessageDeflate.serverResponse(toOffers: [
                "permessage-deflate; server_max_window_bits=10, permessage-deflate"
            ]) == accepted
        )
        #expect(
            PerMessageDeflate.serverResponse(toOffers: [
                "permessage-deflate; server_max_window_bits=10", "permessage-deflate; client_max_window_bits=9",
            ]) == accepted
        )
    }

    @Test(
        "an unknown, repeated, valueless or malformed parameter declines the offer",
        arguments: [
            "permessage-deflate; foo",
            "permessage-deflate; server_no_context_takeover; server_no_context_takeover",
            "permessage-deflate; server_no_context_takeover=1",
            "permessage-deflate; server_max_window_bits",
            "permessage-deflate; server_max_window_bits=015",
            "permessage-deflate; server_max_window_bits=16",
            "permessage-deflate; client_max_window_bits=7",
            "permessage-deflate; client_max_window_bits=x",
            #"permessage-deflate; client_max_window_bits="1"5""#,
            #"permessage-deflate; client_max_window_bits="15"#,
            "permessage-deflate; =15",
            "permessage deflate",
        ]
    )
    func badOffers(_ offer: String) {
        #expect(PerMessageDeflate.serverResponse(toOffers: [offer]) == nil)
    }

    @Test("the header parser: lists over several lines, quoted values, empty elements")
    func parser() throws {
        let offers = try #require(
            ExtensionOffer.parse([#"a; x="1", , b"#, "permessage-deflate;client_max_window_bits"])
        )
        #expect(offers.map(\.name) == ["a", "b", "permessage-deflate"])
        #expect(offers[0].parameters == [ExtensionOffer.Parameter(name: "x", value: "1")])
        #expect(offers[2].parameters == [ExtensionOffer.Parameter(name: "client_max_window_bits", value: nil)])
        #expect(ExtensionOffer.parse([#"a; x="open"#]) == nil)
        #expect(ExtensionOffer.parse(["a b"]) == nil)
    }

    @Test("a client accepts goald's answer, and takes no header as declined")
    func clientAccepts() {
        #expect(PerMessageDeflate.clientOutcome(ofResponse: []) == .declined)
        #expect(PerMessageDeflate.clientOutcome(ofResponse: [accepted]) == .accepted)
        #expect(
            PerMessageDeflate.clientOutcome(ofResponse: ["permessage-deflate; server_no_context_takeover"]) == .accepted
        )
        #expect(
            PerMessageDeflate.clientOutcome(ofResponse: [accepted + "; server_max_window_bits=9"]) == .accepted
        )
    }

    @Test(
        "a client fails an answer that breaks RFC 7692 or answers what it did not offer",
        arguments: [
            "permessage-deflate",  // context takeover by the server: not what was offered
            "x-other",
            "permessage-deflate; server_no_context_takeover, permessage-deflate; server_no_context_takeover",
            "permessage-deflate; server_no_context_takeover; client_max_window_bits=10",
            "permessage-deflate; server_no_context_takeover; server_no_context_takeover",
            "permessage-deflate; server_no_context_takeover; server_max_window_bits=7",
            "permessage-deflate; server_no_context_takeover; mystery",
            #"permessage-deflate; server_no_context_takeover; x="open"#,
        ]
    )
    func clientRefuses(_ answer: String) {
        guard case .invalid = PerMessageDeflate.clientOutcome(ofResponse: [answer]) else {
            Issue.record("accepted \(answer)")
            return
        }
    }
}
