/// A key press as the UI understands it.
enum Key: Equatable, Sendable {
    case character(Character)
    case up, down, left, right
    case tab, backTab
    case enter, escape, backspace
    case controlC
    /// Ctrl-Z: suspend (raw mode turns it into a byte, like Ctrl-C).
    case controlZ
    case pageUp, pageDown, home, end
}

/// Turns raw terminal input into keys: UTF-8 text, control bytes and the common VT100/xterm escape sequences
/// (CSI `A`–`D`, `Z`, `5~`/`6~`, `H`/`F`, SS3 arrows). A lone ESC at the end of a read is the Escape key.
///
/// Value type; feed it each read's bytes in order. Pure, no IO.
struct KeyDecoder {
    private var pending: [UInt8] = []

    /// The keys in `bytes` (plus anything left from the previous call).
    mutating func decode(_ bytes: [UInt8]) -> [Key] {
        pending += bytes
        var keys: [Key] = []
        var index = 0
        while index < pending.count {
            let byte = pending[index]
            switch byte {
            case 0x1B:
                guard index + 1 < pending.count else {
                    keys.append(.escape)
                    index += 1
                    continue
                }
                let next = pending[index + 1]
                if next == UInt8(ascii: "[") || next == UInt8(ascii: "O") {
                    var end = index + 2
                    while end < pending.count, !(0x40...0x7E).contains(pending[end]) { end += 1 }
                    guard end < pending.count else {
                        pending = Array(pending[index...])
                        return keys
                    }
                    let body = String(decoding: pending[(index + 2)...end], as: UTF8.self)
                    if let key = Self.sequence(body) { keys.append(key) }
                    index = end + 1
                } else {
                    keys.append(.escape)
                    index += 1
                }
            case 0x03:
                keys.append(.controlC)
                index += 1
            case 0x1A:
                keys.append(.controlZ)
                index += 1
            case 0x09:
                keys.append(.tab)
                index += 1
            case 0x0D, 0x0A:
                keys.append(.enter)
                index += 1
            case 0x7F, 0x08:
                keys.append(.backspace)
                index += 1
            case 0x00..<0x20: index += 1
            default:
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                guard index + length <= pending.count else {
                    pending = Array(pending[index...])
                    return keys
                }
                // Bytes that are not UTF-8 are no key: skipped one at a time (so decoding resynchronises), never
                // typed into a name as U+FFFD.
                guard let text = String(validating: pending[index..<(index + length)], as: UTF8.self) else {
                    index += 1
                    continue
                }
                keys.append(contentsOf: text.map(Key.character))
                index += length
            }
        }
        pending = []
        return keys
    }

    private static func sequence(_ body: String) -> Key? {
        switch body {
        case "A": .up
        case "B": .down
        case "C": .right
        case "D": .left
        case "Z": .backTab
        case "5~": .pageUp
        case "6~": .pageDown
        case "H", "1~": .home
        case "F", "4~": .end
        default: nil
        }
    }
}
