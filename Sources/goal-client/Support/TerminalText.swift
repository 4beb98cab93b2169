/// Makes text from the server safe to write to a terminal: control characters (C0, DEL, C1), bidi controls and
/// invisible format characters are shown as visible escapes instead of being interpreted.
///
/// A player name like `"\u{1B}[2J"` would clear the screen if written raw; here it prints as `\u{1B}[2J`. Pure
/// functions, thread-safe.
enum TerminalText {
    /// True for a scalar a terminal would interpret or hide instead of showing.
    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        // Bidi embeddings, overrides and isolates; marks; zero-width and invisible formatting; BOM.
        case 0x061C, 0x200B...0x200F, 0x202A...0x202E, 0x2060...0x2069, 0xFEFF: true
        // Line and paragraph separators, interlinear annotation, tags.
        case 0x2028, 0x2029, 0xFFF9...0xFFFB, 0xE0000...0xE007F: true
        default: false
        }
    }

    /// `text` with every unsafe scalar written as `\u{XX}` (visible, never interpreted).
    static func escape(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// JSON text with every unsafe scalar written as a JSON `\uXXXX` escape. Valid JSON stays valid and means the
    /// same: unsafe scalars can only occur inside strings, where `\u` escapes are allowed.
    static func escapeJSON(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: isUnsafe) else { return json }
        var result = ""
        for scalar in json.unicodeScalars {
            if isUnsafe(scalar) {
                for unit in String(scalar).utf16 {
                    let hex = String(unit, radix: 16, uppercase: false)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                }
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The number of terminal columns `text` takes, approximately: one per grapheme cluster, two for wide
    /// (East Asian, emoji) clusters.
    static func width(_ text: String) -> Int {
        text.reduce(0) { $0 + columns(of: $1) }
    }

    /// Columns of one grapheme cluster.
    static func columns(of character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        switch first.value {
        case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    /// `text` cut to at most `columns` columns (an ellipsis marks the cut) and padded with spaces to exactly that.
    static func fit(_ text: String, _ columns: Int) -> String {
        guard columns > 0 else { return "" }
        var used = 0
        var result = ""
        let total = width(text)
        for character in text {
            let wide = Self.columns(of: character)
            if total > columns && used + wide > columns - 1 { break }
            if used + wide > columns { break }
            result.append(character)
            used += wide
        }
        if total > columns {
            result.append("…")
            used += 1
        }
        return result + String(repeating: " ", count: max(0, columns - used))
    }
}
