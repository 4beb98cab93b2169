/// How a piece of a screen line looks. With `NO_COLOR` set, colored styles fall back to bold, underline and
/// reverse video.
enum Style: Sendable, Equatable {
    case plain, bold, dim, reverse
    /// A row someone else just changed.
    case changed
    /// An alert banner.
    case banner
    /// The selected row.
    case selected
    /// Marks for pending edits.
    case pending
    /// The selected row when someone else just changed it.
    case selectedChanged
    /// Data that may be out of date (not live).
    case stale
    /// The connection marker, one colour per phase (the marker's text carries the phase without colour).
    case live, connecting, reconnecting, stopped

    func sgr(colors: Bool) -> String {
        switch self {
        case .plain: ""
        case .bold: "\u{1B}[1m"
        case .dim: "\u{1B}[2m"
        case .reverse, .selected: "\u{1B}[7m"
        case .changed: colors ? "\u{1B}[30;43m" : "\u{1B}[1;4m"
        case .banner: colors ? "\u{1B}[97;41m" : "\u{1B}[7;1m"
        case .pending: colors ? "\u{1B}[36m" : "\u{1B}[1m"
        case .selectedChanged: colors ? "\u{1B}[7;33m" : "\u{1B}[7;1;4m"
        case .stale: "\u{1B}[2m"
        case .live: colors ? "\u{1B}[30;42m" : "\u{1B}[7m"
        case .connecting: colors ? "\u{1B}[30;46m" : "\u{1B}[7m"
        case .reconnecting: colors ? "\u{1B}[30;43m" : "\u{1B}[7;1m"
        case .stopped: colors ? "\u{1B}[97;41m" : "\u{1B}[7;1m"
        }
    }
}

/// One line of the screen: styled segments whose text is already escaped for the terminal. Value type.
struct ScreenLine: Equatable, Sendable {
    var segments: [(text: String, style: Style)] = []

    static func == (lhs: ScreenLine, rhs: ScreenLine) -> Bool {
        lhs.segments.count == rhs.segments.count
            && zip(lhs.segments, rhs.segments).allSatisfy { $0.text == $1.text && $0.style == $1.style }
    }

    init(_ text: String = "", _ style: Style = .plain) {
        if !text.isEmpty { segments = [(text, style)] }
    }

    mutating func append(_ text: String, _ style: Style = .plain) {
        segments.append((text, style))
    }

    /// The same segments in one style (a selected or changed row).
    func styled(_ style: Style) -> ScreenLine {
        var copy = ScreenLine()
        copy.segments = segments.map { ($0.text, style) }
        copy.fillStyle = style
        return copy
    }

    /// The style of the padding after the text.
    var fillStyle: Style = .plain

    /// Terminal bytes for exactly `width` columns.
    func rendered(width: Int, colors: Bool) -> String {
        var out = ""
        var used = 0
        for segment in segments where used < width {
            let room = width - used
            let text = TerminalText.width(segment.text) > room ? TerminalText.fit(segment.text, room) : segment.text
            out += segment.style.sgr(colors: colors) + text + (segment.style == .plain ? "" : "\u{1B}[0m")
            used += TerminalText.width(text)
        }
        if used < width {
            out += fillStyle.sgr(colors: colors) + String(repeating: " ", count: width - used)
            if fillStyle != .plain { out += "\u{1B}[0m" }
        }
        return out
    }
}
