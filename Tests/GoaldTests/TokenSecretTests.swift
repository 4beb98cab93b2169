import GoalServer
import GoalTestSlots
import Testing

@Suite("token secrets never start with '-' and keep their strength (issue 16 point 11)", .slotted)
struct TokenSecretTests {
    @Test("20,000 secrets: none starts with '-' or '_', every first letter and digit occurs, all distinct")
    func firstCharacter() {
        let secrets = (0..<20_000).map { _ in TokenSecret.generate().text }
        #expect(Set(secrets).count == secrets.count)
        let firsts = secrets.compactMap(\.first)
        #expect(!firsts.contains("-"))
        #expect(!firsts.contains("_"))
        // 62 letters and digits, ~323 draws each: a first character drawn from fewer would show here.
        #expect(Set(firsts).count == 62)
        // The other 42 characters still use the whole alphabet, '-' and '_' included.
        let rest = Set(secrets.flatMap { $0.dropFirst() })
        #expect(rest.count == 64)
        #expect(rest.contains("-") && rest.contains("_"))
        for secret in secrets.prefix(100) {
            #expect(secret.count == TokenSecret.textLength)
            #expect(TokenSecret(text: secret)?.text == secret)
        }
    }

    @Test("a secret made before the rule (starting with '-') is still accepted")
    func oldSecretsStillParse() {
        let old = "-" + String(repeating: "a", count: TokenSecret.textLength - 1)
        #expect(TokenSecret(text: old)?.text == old)
    }
}
