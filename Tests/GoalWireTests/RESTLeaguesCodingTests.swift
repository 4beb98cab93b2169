import GoalModel
import GoalTestSlots
import GoalWire
import Testing

@Suite("REST league bodies: the list, one league, the create body and the error body", .slotted)
struct RESTLeaguesCodingTests {
    private func slug(_ text: String) throws -> LeagueSlug { try LeagueSlug(validating: text) }

    @Test("a list written by encodeList reads back equal, in order, names escaped")
    func listRoundTrip() throws {
        let listings = [
            LeagueListing(
                id: try slug("office"),
                name: "Office \"HQ\" \\ Zoë",
                created: "2026-11-29T09:00:00Z",
                role: .admin
            ),
            LeagueListing(id: try slug("home-2"), name: "Home", created: "2026-11-28T10:00:00Z", role: .viewer),
        ]
        let bytes = RESTLeagues.encodeList(listings)
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix(#"{"leagues":[{"id":"office","name":"Office \"HQ\""#))
        #expect(try RESTLeagues.decodeList(bytes) == listings)
        #expect(try RESTLeagues.decodeList(RESTLeagues.encodeList([])) == [])
    }

    @Test("one league reads bare or wrapped in {\"league\":…}; a numeric created is kept as its digits")
    func oneLeague() throws {
        let expected = LeagueListing(id: try slug("a1"), name: "A", created: "1764406800000", role: .editor)
        let bare = #"{"id":"a1","name":"A","created":1764406800000,"role":"editor"}"#
        #expect(try RESTLeagues.decodeListing(Array(bare.utf8)) == expected)
        #expect(try RESTLeagues.decodeListing(Array(#"{"league":\#(bare)}"#.utf8)) == expected)
        #expect(try RESTLeagues.decodeListing(RESTLeagues.encode(expected)) == expected)
    }

    @Test("the create body is {\"id\",\"name\"} with the name escaped")
    func createBody() throws {
        let body = RESTLeagues.createBody(id: try slug("office-berlin"), name: "Berlin \"Mitte\"")
        #expect(String(decoding: body, as: UTF8.self) == #"{"id":"office-berlin","name":"Berlin \"Mitte\""}"#)
    }

    @Test(
        "a listing that breaks the shape names the field",
        arguments: [
            (#"{"leagues":[{"id":"Bad Id","name":"x","created":"x","role":"admin"}]}"#, "leagues.leagues[0].id"),
            (#"{"leagues":[{"id":"ok","name":"x","created":"x","role":"owner"}]}"#, "leagues.leagues[0].role"),
            (#"{"leagues":[{"id":"ok","created":"x","role":"admin"}]}"#, "leagues.leagues[0].name"),
            (#"{"leagues":[{"id":"ok","name":"x","created":true,"role":"admin"}]}"#, "leagues.leagues[0].created"),
            (#"{"leagues":{}}"#, "leagues.leagues"),
            (#"{}"#, "leagues.leagues"),
            (#"[1"#, "message"),
        ]
    )
    func malformedList(text: String, path: String) {
        #expect(
            performing: { _ = try RESTLeagues.decodeList(Array(text.utf8)) },
            throws: { error in
                (error as? WireDecodingError)?.path == path
            }
        )
    }

    @Test("goald's error body reads as message and code; a body without a string response is none")
    func errorBody() {
        let body = #"{"response_type":"error","response":"no such league","code":"not_found"}"#
        #expect(RESTLeagues.decodeError(Array(body.utf8)) == RESTErrorBody(message: "no such league", code: .notFound))
        let written = RESTEncoding.error(code: .unauthenticated, message: "token revoked")
        #expect(RESTLeagues.decodeError(written) == RESTErrorBody(message: "token revoked", code: .unauthenticated))
        #expect(RESTLeagues.decodeError(Array(#"{"response":"x"}"#.utf8)) == RESTErrorBody(message: "x", code: nil))
        #expect(RESTLeagues.decodeError(Array("Bad Gateway".utf8)) == nil)
        #expect(RESTLeagues.decodeError(Array(#"{"response":3}"#.utf8)) == nil)
    }
}
