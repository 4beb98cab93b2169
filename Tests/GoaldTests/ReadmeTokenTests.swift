import Foundation
import GoalServer
import GoalTestSlots
import GoalTestSupport
import Testing

@Suite("README's walkthrough matches goald's tokens (issue 16 point 11)", .slotted)
struct ReadmeTokenTests {
    static func readme() throws -> String { try RepositoryFiles.text("README.md") }

    @Test("every example token (GOAL_TOKEN=…, \"such as\") has the real format and does not start with '-'")
    func exampleTokens() throws {
        let text = try Self.readme()
        let shown =
            text.components(separatedBy: "GOAL_TOKEN=").dropFirst()
            + text.components(separatedBy: "such as `").dropFirst()
        let literals = shown.map { rest in
            String(rest.prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "…" })
        }
        .filter { !$0.isEmpty }
        #expect(!literals.isEmpty, "the walkthrough shows a token")
        for literal in literals {
            #expect(TokenSecret(text: literal)?.text == literal, "\(literal) is not a goald token")
            #expect(literal.first?.isLetter == true || literal.first?.isNumber == true, "\(literal)")
        }
    }

    @Test("the walkthrough's goald token create names the daemon's state directory")
    func walkthroughStateDirectory() throws {
        let text = try Self.readme()
        #expect(text.contains("goald serve --state-dir /tmp/league"))
        let creates = text.components(separatedBy: "\n").filter { $0.contains(".build/debug/goald token create") }
        #expect(!creates.isEmpty)
        #expect(creates.allSatisfy { $0.contains("--state-dir /tmp/league") }, "\(creates)")
    }
}
