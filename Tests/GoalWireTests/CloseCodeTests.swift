import GoalTestSlots
import GoalWire
import Testing

@Suite("Close codes and error codes", .slotted)
struct CloseCodeTests {
    @Test("two classes: 4000–4099 and 1001 reconnect; 4400–4499 are terminal")
    func classes() {
        for code in CloseCode.allDefined {
            #expect(code.isTerminal != code.shouldReconnect)
            switch code.rawValue {
            case 4000...4099, 1000, 1001: #expect(code.shouldReconnect, "\(code)")
            case 4400...4499, 1002, 1007: #expect(code.isTerminal, "\(code)")
            default: Issue.record("undocumented class for \(code)")
            }
        }
        #expect(CloseCode.slowConsumer.rawValue == 4008 && CloseCode.slowConsumer.shouldReconnect)
        #expect(CloseCode.goingAway.shouldReconnect)
        #expect(CloseCode.unauthorized.isTerminal && CloseCode.tokenRevoked.isTerminal)
        #expect(CloseCode.unsupportedProtocolVersion.isTerminal)
        #expect(CloseCode.handshakeTimeout.shouldReconnect)
        #expect(CloseCode(rawValue: 4057).shouldReconnect && CloseCode(rawValue: 4499).isTerminal)
        #expect(CloseCode(rawValue: 1009).isTerminal && CloseCode(rawValue: 1006).shouldReconnect)
    }

    @Test("every close code has a distinct value and a readable description")
    func distinct() {
        #expect(Set(CloseCode.allDefined.map(\.rawValue)).count == CloseCode.allDefined.count)
        #expect(CloseCode.slowConsumer.description == "slow_consumer (4008)")
    }

    @Test("every error code maps to a close code of the right class")
    func errorMapping() {
        let terminal: Set<WireErrorCode> = [
            .badMessage, .unknownType, .tooLarge, .notAuthenticated, .alreadyAuthenticated, .unauthorized,
            .tokenRevoked, .protocolVersion, .sessionReplaced, .unknownLeague, .leagueForbidden,
        ]
        for code in WireErrorCode.allCases {
            #expect(code.closeCode.isTerminal == terminal.contains(code), "\(code)")
        }
        #expect(WireErrorCode.tokenRevoked.closeCode == .tokenRevoked)
        #expect(WireErrorCode.unknownLeague.closeCode.rawValue == 4404)
        #expect(WireErrorCode.leagueForbidden.closeCode.rawValue == 4405)
        #expect(WireErrorCode.shuttingDown.closeCode == .goingAway)
        #expect(WireErrorCode.protocolVersion.closeCode.rawValue == 4426)
    }
}
