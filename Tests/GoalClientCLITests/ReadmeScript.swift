import Foundation

/// README.md's shell blocks as a script a test can run in order (ReadmeWalkthroughTests). Value type; pure.
///
/// Every ```` ```sh ```` block is run unless the line before it is
/// `<!-- ReadmeWalkthroughTests: not run (REASON) -->`. Inside a block, lines continued with `\` are joined, and
/// each line is one step:
/// - `swift build` and `swift test` are left out (the test runs on the products `swift test` already built);
/// - `swift run goald` and a line ending in `# keep it running` start a daemon that runs until the test ends;
/// - every other line is a command, run in order in one shell per block.
struct ReadmeScript {
    /// One shell block of the README.
    struct Block {
        /// The 1-based line of its opening fence.
        var line: Int
        /// Its commands, continuations joined, blank and comment-only lines left out.
        var commands: [String]
        /// Why it is not run, from its marker; nil when it is run.
        var notRun: String?
    }

    /// What one command line asks of the test.
    enum Step: Equatable {
        /// Built already: not run.
        case build
        /// A daemon that keeps running (the command, without its comment).
        case daemon(String)
        /// A command that runs to completion.
        case command(String)
    }

    static let marker = "<!-- ReadmeWalkthroughTests: not run ("

    var blocks: [Block] = []

    init(_ readme: String) {
        let lines = readme.components(separatedBy: "\n")
        var index = 0
        while index < lines.count {
            guard lines[index] == "```sh" else {
                index += 1
                continue
            }
            let fence = index + 1
            let previous = index > 0 ? lines[index - 1] : ""
            let notRun =
                previous.hasPrefix(Self.marker)
                ? String(previous.dropFirst(Self.marker.count).dropLast(") -->".count)) : nil
            var commands: [String] = []
            var pending = ""
            index += 1
            while index < lines.count, lines[index] != "```" {
                let line = lines[index]
                if line.hasSuffix("\\") {
                    pending += String(line.dropLast()) + " "
                } else {
                    let joined = (pending + line).trimmingCharacters(in: .whitespaces)
                    pending = ""
                    if !joined.isEmpty, !joined.hasPrefix("#") { commands.append(joined) }
                }
                index += 1
            }
            blocks.append(Block(line: fence, commands: commands, notRun: notRun))
            index += 1
        }
    }

    /// What `command` asks for (see the type's documentation).
    static func step(_ command: String) -> Step {
        let code = command.components(separatedBy: "  #").first?.trimmingCharacters(in: .whitespaces) ?? command
        if code == "swift build" || code == "swift test" { return .build }
        if code == "swift run goald" { return .daemon(code) }
        if command.contains("# keep it running") { return .daemon(code) }
        return .command(command)
    }
}
