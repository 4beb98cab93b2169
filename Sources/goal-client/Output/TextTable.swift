/// A plain-text table for people: a header row and left-aligned columns two spaces apart, widths measured in
/// terminal columns. Cells must already be escaped (`TerminalText.escape`). Value type.
struct TextTable {
    var header: [String]
    var rows: [[String]] = []
    /// Columns aligned to the right (numbers).
    var rightAligned: Set<Int> = []

    /// The lines of the table (header first); trailing spaces trimmed.
    var lines: [String] {
        let all = [header] + rows
        var widths = Array(repeating: 0, count: header.count)
        for row in all {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], TerminalText.width(cell))
            }
        }
        return all.map { row in
            var line = ""
            for (index, cell) in row.enumerated() where index < widths.count {
                let pad = String(repeating: " ", count: widths[index] - TerminalText.width(cell))
                let isLast = index == row.count - 1
                line += rightAligned.contains(index) ? pad + cell : cell + (isLast ? "" : pad)
                if !isLast { line += "  " }
            }
            return line
        }
    }
}
