/// JSON text for callers outside GoalWire that write a small JSON document by hand (goald's `/healthz`) or many
/// small ones fast (goald's JSON log lines): strings escaped by the same rules as every frame (`JSONWriter`).
///
/// Stateless; `Sendable`.
public enum JSONText {
    /// `text` as a JSON string literal, quotes included.
    public static func string(_ text: String) -> String {
        var writer = JSONWriter(capacity: text.utf8.count + 2)
        writer.string(text)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// A flat object of string members, in the order given, as one line of compact JSON: one buffer, no
    /// intermediate document (the JSON log handler writes one per log event).
    public static func stringObject(_ members: some Sequence<(key: String, value: String)>) -> String {
        var writer = JSONWriter(capacity: 256)
        writer.byte(UInt8(ascii: "{"))
        var first = true
        for (key, value) in members {
            if !first { writer.byte(UInt8(ascii: ",")) }
            first = false
            writer.string(key)
            writer.byte(UInt8(ascii: ":"))
            writer.string(value)
        }
        writer.byte(UInt8(ascii: "}"))
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
