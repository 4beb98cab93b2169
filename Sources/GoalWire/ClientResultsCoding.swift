public import GoalModel

/// The JSON form of an exactly-once record's kept results, as the store persists them (the SQLite store's
/// `client_records.results` column): an array of `{"fingerprint":"<16 hex>","outcome":{…},"seq":n}`, keys in
/// sorted order, the outcome in its wire shape (`{"outcome":"committed"|"noop","revision":R}`, or
/// `{"code",…,"outcome":"rejected"}` with the rejection's members), so a rejection keeps its code, fields and
/// current entity across restarts.
///
/// Rows written before GoalWire owned this codec (by `JSONEncoder` with sorted keys) have the same shape and
/// read back unchanged. Stateless, `Sendable`.
public enum ClientResultsCoding {
    /// The results as one JSON array.
    public static func encode(_ entries: [ClientRecord.Entry]) -> [UInt8] {
        var w = JSONWriter(capacity: 64 + 96 * entries.count)
        w.byte(UInt8(ascii: "["))
        for (index, entry) in entries.enumerated() {
            if index > 0 { w.byte(UInt8(ascii: ",")) }
            w.raw(#"{"fingerprint":"#)
            w.string(entry.fingerprint.description)
            w.raw(#","outcome":"#)
            w.outcome(entry.outcome)
            w.raw(#","seq":"#)
            w.integer(entry.seq)
            w.byte(UInt8(ascii: "}"))
        }
        w.byte(UInt8(ascii: "]"))
        return w.bytes
    }

    /// Reads results written by `encode` (or by the `JSONEncoder` of earlier versions).
    /// - Throws: `WireDecodingError` naming the field (`results[3].outcome.code`).
    public static func decode(_ bytes: [UInt8]) throws(WireDecodingError) -> [ClientRecord.Entry] {
        try JSONReader.array(try WireJSON.parse(bytes, limit: .max), at: "results") {
            (value, path) throws(WireDecodingError) in
            let object = try JSONObject(value, at: path)
            let text = try object.string("fingerprint")
            guard let fingerprint = UInt64(text, radix: 16) else {
                throw .invalidValue(object.path("fingerprint"), "expected 16 hex digits; found \"\(text.prefix(20))\"")
            }
            return ClientRecord.Entry(
                seq: try object.integer("seq"),
                fingerprint: PayloadFingerprint(rawValue: fingerprint),
                outcome: try object.read("outcome", ModelReader.outcome)
            )
        }
    }
}
