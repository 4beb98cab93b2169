/// JSON text for callers outside GoalWire that write a small JSON document by hand (goald's `/healthz`): a string
/// literal escaped by the same rules as every frame (`JSONWriter`).
///
/// Stateless; `Sendable`.
public enum JSONText {
    /// `text` as a JSON string literal, quotes included.
    public static func string(_ text: String) -> String {
        var writer = JSONWriter(capacity: text.utf8.count + 2)
        writer.string(text)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
