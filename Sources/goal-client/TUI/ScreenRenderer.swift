/// Draws frames on the terminal, writing only the lines that changed since the last frame (all of them after a
/// resize or `invalidate()`).
///
/// Threading: `@MainActor` (the UI's). Lifetime: one per UI session.
@MainActor
final class ScreenRenderer {
    private var previous: [String] = []
    private var size = (columns: 0, rows: 0)
    let colors: Bool
    /// Lines written by the last `draw` (for tests and diagnostics).
    private(set) var lastWrittenLines = 0

    init(colors: Bool) {
        self.colors = colors
    }

    /// Forgets the screen, so the next frame is drawn whole.
    func invalidate() {
        previous = []
    }

    /// Draws `lines` (padded or cut to the screen) at `columns`×`rows`.
    func draw(_ lines: [ScreenLine], columns: Int, rows: Int) {
        if size != (columns, rows) {
            size = (columns, rows)
            previous = []
            Terminal.write("\u{1B}[0m\u{1B}[2J")
        }
        var out = ""
        var written = 0
        for row in 0..<rows {
            let line = row < lines.count ? lines[row] : ScreenLine()
            let text = line.rendered(width: columns, colors: colors)
            if row < previous.count, previous[row] == text { continue }
            out += "\u{1B}[\(row + 1);1H" + text
            written += 1
            if row < previous.count {
                previous[row] = text
            } else {
                while previous.count < row { previous.append("") }
                previous.append(text)
            }
        }
        lastWrittenLines = written
        if !out.isEmpty { Terminal.write(out) }
    }
}
