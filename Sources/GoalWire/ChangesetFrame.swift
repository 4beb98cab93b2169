public import GoalModel

/// One `changeset` frame: its exact bytes, built once per changeset and written unchanged to every subscriber,
/// to the log and to catch-up readers; and the chained digest those bytes carry.
///
/// Layout: `{"type":"changeset","revision":R,"digest":"<64 hex>","time":T,<body>}` where `<body>` is the
/// changeset's other members in sorted key order: `"action"`?, `"author"`, `"changes"`, `"client_instance"`?,
/// `"seq"`?. The canonical payload that the digest covers is the same members plus `revision` and `time`, all in
/// sorted key order, without `digest` and `type`:
/// `{"action":…,"author":…,"changes":[…],"client_instance":…,"revision":R,"seq":N,"time":T}`.
/// Both are written from the same bytes (the payload is hashed in slices of the frame), so encoding costs one
/// pass and one buffer. d_R = SHA-256(d_R−1 ‖ payload_R), d_0 = 32 zero bytes (`Digest.genesis`).
///
/// Value type, `Sendable`; every function is pure and safe from any thread.
public struct ChangesetFrame: Hashable, Sendable {
    /// The frame's UTF-8 JSON text.
    public let bytes: [UInt8]
    /// The revision the frame carries.
    public let revision: Revision
    /// d_R, as written into the frame.
    public let digest: Digest

    /// The three header fields `peek` reads without decoding the changes.
    public struct Header: Hashable, Sendable {
        public var revision: Revision
        public var digest: Digest
        public var time: Timestamp

        public init(revision: Revision, digest: Digest, time: Timestamp) {
            self.revision = revision
            self.digest = digest
            self.time = time
        }
    }

    /// Builds the frame of a new commit and computes its chained digest. `changeset.digest` is ignored.
    /// - Parameters:
    ///   - changeset: the commit (revision, mutation id, author, time, action, changes).
    ///   - previousDigest: d_R−1, the digest of the revision before.
    /// - Returns: the frame, whose `digest` is d_R.
    public static func encode(_ changeset: Changeset, previousDigest: Digest) -> ChangesetFrame {
        var layout = write(changeset, digest: nil)
        let digest = chainedDigest(previous: previousDigest, layout: layout, changeset: changeset)
        layout.writer.bytes.withUnsafeMutableBufferPointer { buffer in
            var index = layout.digestOffset
            for b in digest.bytes {
                buffer[index] = JSONWriter.hexDigits[Int(b >> 4)]
                buffer[index + 1] = JSONWriter.hexDigits[Int(b & 0x0f)]
                index += 2
            }
        }
        return ChangesetFrame(bytes: layout.writer.bytes, revision: changeset.revision, digest: digest)
    }

    /// The frame of a changeset whose digest is already known (re-sending, tests); nothing is hashed.
    public static func encode(knownDigest changeset: Changeset) -> ChangesetFrame {
        ChangesetFrame(
            bytes: write(changeset, digest: changeset.digest).writer.bytes,
            revision: changeset.revision,
            digest: changeset.digest
        )
    }

    /// The canonical payload of a changeset: sorted keys, no whitespace, integers only, no `digest`.
    public static func payload(of changeset: Changeset) -> [UInt8] {
        let layout = write(changeset, digest: nil)
        var payload: [UInt8] = []
        payload.reserveCapacity(layout.writer.bytes.count)
        layout.forEachPayloadSlice(changeset: changeset) { payload.append(contentsOf: $0) }
        return payload
    }

    /// d_R = SHA-256(d_R−1 ‖ payload).
    public static func digest(previous: Digest, payload: [UInt8]) -> Digest {
        var hasher = DigestHasher(previous: previous)
        payload.withUnsafeBytes { hasher.update($0) }
        return hasher.finalize()
    }

    /// Re-encodes a decoded changeset canonically and checks that its digest continues the chain.
    /// - Returns: true when SHA-256(`previousDigest` ‖ payload) equals `changeset.digest`.
    public static func verify(_ changeset: Changeset, previousDigest: Digest) -> Bool {
        let layout = write(changeset, digest: nil)
        return chainedDigest(previous: previousDigest, layout: layout, changeset: changeset) == changeset.digest
    }

    /// Reads revision, digest and time from the front of a frame written by this encoder, without decoding the
    /// changes and without allocating beyond the digest's 32 bytes.
    /// - Returns: nil when the bytes do not start with this encoder's changeset header (another message type,
    ///   another key order, malformed): decode such a frame with `ServerMessage.decode`.
    public static func peek(_ bytes: [UInt8]) -> Header? {
        bytes.withUnsafeBufferPointer { peek($0) }
    }

    /// `peek` over any contiguous bytes (a NIO `ByteBuffer`'s readable view, for instance).
    public static func peek(_ bytes: UnsafeBufferPointer<UInt8>) -> Header? {
        var cursor = PeekCursor(bytes: bytes)
        guard cursor.expect(headerType), let revision = cursor.unsigned(), cursor.expect(headerDigest) else {
            return nil
        }
        guard let digest = cursor.digest(), cursor.expect(headerTime), let time = cursor.signed() else { return nil }
        guard cursor.expectByte(UInt8(ascii: ",")) || cursor.expectByte(UInt8(ascii: "}")) else { return nil }
        return Header(revision: revision, digest: digest, time: Timestamp(millisecondsSince1970: time))
    }

    private static let headerType: StaticString = #"{"type":"changeset","revision":"#
    private static let headerDigest: StaticString = #","digest":""#
    private static let headerTime: StaticString = #"","time":"#
}

extension ChangesetFrame {
    /// Where the pieces of the frame are, so the payload can be hashed in place.
    struct Layout {
        var writer: JSONWriter
        /// Offset of the 64 hex digits of the digest.
        var digestOffset: Int
        /// Body members before `revision` in sorted order: `bodyStart..<split` (never empty: `author`).
        var bodyStart: Int
        /// Body members after `revision` (`,"seq":N` or nothing): `split..<end`.
        var split: Int
        var end: Int

        /// Calls `body` with each slice of the canonical payload, in order.
        func forEachPayloadSlice(changeset: Changeset, _ body: (UnsafeRawBufferPointer) -> Void) {
            var tail = JSONWriter(capacity: 64)
            tail.raw(#","revision":"#)
            tail.integer(changeset.revision)
            var last = JSONWriter(capacity: 32)
            last.raw(#","time":"#)
            last.integer(changeset.time.millisecondsSince1970)
            last.byte(UInt8(ascii: "}"))
            writer.bytes.withUnsafeBytes { frame in
                withUnsafeBytes(of: UInt8(ascii: "{")) { body($0) }
                body(UnsafeRawBufferPointer(rebasing: frame[bodyStart..<split]))
                tail.bytes.withUnsafeBytes { body($0) }
                body(UnsafeRawBufferPointer(rebasing: frame[split..<end]))
                last.bytes.withUnsafeBytes { body($0) }
            }
        }
    }

    static func chainedDigest(previous: Digest, layout: Layout, changeset: Changeset) -> Digest {
        var hasher = DigestHasher(previous: previous)
        layout.forEachPayloadSlice(changeset: changeset) { hasher.update($0) }
        return hasher.finalize()
    }

    /// Writes the frame; with `digest == nil` the digest's place holds 64 zeros, to be patched.
    static func write(_ changeset: Changeset, digest: Digest?) -> Layout {
        var w = JSONWriter(capacity: 160 + 420 * changeset.changes.count + changeset.author.utf8.count)
        w.raw(#"{"type":"changeset","revision":"#)
        w.integer(changeset.revision)
        w.raw(#","digest":""#)
        let digestOffset = w.bytes.count
        if let digest {
            for b in digest.bytes {
                w.byte(JSONWriter.hexDigits[Int(b >> 4)])
                w.byte(JSONWriter.hexDigits[Int(b & 0x0f)])
            }
        } else {
            w.bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: 64))
        }
        w.raw(#"","time":"#)
        w.integer(changeset.time.millisecondsSince1970)
        w.byte(UInt8(ascii: ","))
        let bodyStart = w.bytes.count
        if let action = changeset.action {
            w.raw(#""action":"#)
            w.action(action)
            w.byte(UInt8(ascii: ","))
        }
        w.raw(#""author":"#)
        w.string(changeset.author)
        w.raw(#","changes":["#)
        for (index, change) in changeset.changes.enumerated() {
            if index > 0 { w.byte(UInt8(ascii: ",")) }
            w.change(change)
        }
        w.byte(UInt8(ascii: "]"))
        if let id = changeset.mutationID {
            w.raw(#","client_instance":"#)
            w.string(id.instance.rawValue)
        }
        let split = w.bytes.count
        if let id = changeset.mutationID {
            w.raw(#","seq":"#)
            w.integer(id.seq)
        }
        let end = w.bytes.count
        w.byte(UInt8(ascii: "}"))
        return Layout(writer: w, digestOffset: digestOffset, bodyStart: bodyStart, split: split, end: end)
    }
}

/// A forward-only reader over a frame's first bytes, for `peek`.
private struct PeekCursor {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    mutating func expect(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        let matches = text.withUTF8Buffer { expected in
            for offset in 0..<count where bytes[index + offset] != expected[offset] { return false }
            return true
        }
        if matches { index += count }
        return matches
    }

    mutating func expectByte(_ value: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == value else { return false }
        index += 1
        return true
    }

    mutating func unsigned() -> UInt64? {
        var value: UInt64 = 0
        let start = index
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(bytes[index] - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { return nil }
            value = sum
            index += 1
        }
        return index > start ? value : nil
    }

    mutating func signed() -> Int64? {
        let negative = expectByte(UInt8(ascii: "-"))
        guard let magnitude = unsigned() else { return nil }
        if negative { return magnitude <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- magnitude) : nil }
        return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    }

    mutating func digest() -> Digest? {
        guard bytes.count - index >= 64 else { return nil }
        var out = [UInt8](repeating: 0, count: 32)
        for offset in 0..<32 {
            guard let high = nibble(bytes[index + 2 * offset]), let low = nibble(bytes[index + 2 * offset + 1]) else {
                return nil
            }
            out[offset] = high << 4 | low
        }
        index += 64
        return Digest(bytes: out)
    }

    private func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
