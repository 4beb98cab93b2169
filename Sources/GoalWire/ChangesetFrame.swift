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
        let digest = layout.slices.chainedDigest(in: layout.writer.bytes, previous: previousDigest)
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
        return layout.slices.payload(in: layout.writer.bytes)
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
        return layout.slices.chainedDigest(in: layout.writer.bytes, previous: previousDigest) == changeset.digest
    }

    /// Reads revision, digest and time from the front of a frame written by this encoder or by `DeltaFrame` (the
    /// same header), without decoding the changes and without allocating beyond the digest's 32 bytes.
    /// - Returns: nil when the bytes do not start with this encoder's changeset header (another message type,
    ///   another key order, malformed): decode such a frame with `ServerMessage.decode`.
    public static func peek(_ bytes: [UInt8]) -> Header? {
        bytes.withUnsafeBufferPointer { peek($0) }
    }

    /// `peek` over any contiguous bytes (a NIO `ByteBuffer`'s readable view, for instance).
    public static func peek(_ bytes: UnsafeBufferPointer<UInt8>) -> Header? {
        // The direct reader's cursor: it reads exactly what the writer writes (no leading zeros, no `-0`).
        var cursor = FrameCursor(bytes)
        guard cursor.literal(#"{"type":"changeset","revision":"#) || cursor.literal(#"{"type":"delta","revision":"#),
            let revision = cursor.unsigned(),
            cursor.literal(#","digest":"#), let digest = cursor.digest(),
            cursor.literal(#","time":"#), let time = cursor.signed(),
            cursor.byte(UInt8(ascii: ",")) || cursor.byte(UInt8(ascii: "}"))
        else { return nil }
        return Header(revision: revision, digest: digest, time: Timestamp(millisecondsSince1970: time))
    }
}

extension ChangesetFrame {
    /// The frame as written, where its digest goes, and where its canonical payload lies.
    struct Layout {
        var writer: JSONWriter
        /// Offset of the 64 hex digits of the digest.
        var digestOffset: Int
        var slices: PayloadSlices
    }

    /// Writes the frame; with `digest == nil` the digest's place holds 64 zeros, to be patched.
    static func write(_ changeset: Changeset, digest: Digest?) -> Layout {
        var w = JSONWriter(capacity: 160 + 420 * changeset.changes.count + changeset.author.utf8.count)
        w.raw(#"{"type":"changeset""#)
        let revisionStart = w.bytes.count
        w.raw(#","revision":"#)
        w.integer(changeset.revision)
        let revisionEnd = w.bytes.count
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
        w.byte(UInt8(ascii: "\""))
        let timeStart = w.bytes.count
        w.raw(#","time":"#)
        w.integer(changeset.time.millisecondsSince1970)
        let timeEnd = w.bytes.count
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
        let slices = PayloadSlices(
            revisionMember: revisionStart..<revisionEnd,
            timeMember: timeStart..<timeEnd,
            bodyBeforeSeq: bodyStart..<split,
            seqMember: split..<end
        )
        return Layout(writer: w, digestOffset: digestOffset, slices: slices)
    }
}
