import Foundation
import GoalTestSlots
import Testing

/// Every suite of the package runs its test cases in `TestSlots` (issue 34 point 4): one suite without `.slotted`
/// starts all its cases at once beside the bounded ones, as the whole run did before.
@Suite("every test suite declares .slotted", .slotted)
struct SlottedSuitesTests {
    @Test("no @Suite attribute in Tests/ lacks the .slotted trait")
    func everySuiteIsSlotted() throws {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        let files = try #require(FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil))
        var suites = 0
        var missing: [String] = []
        for case let file as URL in files where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            for attribute in Self.suiteAttributes(in: text) {
                suites += 1
                if !attribute.contains(".slotted") { missing.append("\(file.lastPathComponent): \(attribute)") }
            }
        }
        #expect(suites > 200, "found \(suites) suites: is the Tests directory where this test looks?")
        #expect(missing.isEmpty, "suites without .slotted:\n\(missing.joined(separator: "\n"))")
    }

    @Test("the attribute reader sees bare, one-line and multi-line attributes")
    func readerSeesEveryForm() {
        let text =
            "@Suite\nstruct A {}\n@Suite(\"b\", .slotted)\nstruct B {}\n@Suite(\n    \"c (d)\",\n    .serialized\n)\n"
        #expect(
            Self.suiteAttributes(in: text) == [
                "@Suite", "@Suite(\"b\", .slotted)", "@Suite(\n    \"c (d)\",\n    .serialized\n)",
            ]
        )
    }

    /// The `@Suite` attributes of a source file (those that start a line), each with its arguments (parentheses
    /// inside strings skipped).
    static func suiteAttributes(in text: String) -> [String] {
        var attributes: [String] = []
        var rest = Substring(text)
        while let start = rest.range(of: "@Suite") {
            var end = start.upperBound
            if end < rest.endIndex, rest[end] == "(" {
                var depth = 0
                var inString = false
                var index = end
                scan: while index < rest.endIndex {
                    let character = rest[index]
                    if inString {
                        if character == "\\" {
                            index = rest.index(after: index)
                        } else if character == "\"" {
                            inString = false
                        }
                    } else if character == "\"" {
                        inString = true
                    } else if character == "(" {
                        depth += 1
                    } else if character == ")" {
                        depth -= 1
                        if depth == 0 {
                            end = rest.index(after: index)
                            break scan
                        }
                    }
                    if index < rest.endIndex { index = rest.index(after: index) }
                }
            }
            let lineStart =
                rest[..<start.lowerBound].lastIndex(of: "\n").map { rest.index(after: $0) } ?? rest.startIndex
            if rest[lineStart..<start.lowerBound].allSatisfy(\.isWhitespace) {  // an attribute, not text that names one
                attributes.append(String(rest[start.lowerBound..<end]))
            }
            rest = rest[end...]
        }
        return attributes
    }
}
