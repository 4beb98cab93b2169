public import GoalModel

extension ChangesetFrame {
    /// Where payload_R (docs/PROTOCOL.md §5) lies in a changeset frame as `ChangesetFrame.encode` writes it: the
    /// frame is `{"type":"changeset","revision":R,"digest":"…","time":T,<body>}` with `<body>` canonical, so
    /// payload_R = `{` + the body up to `client_instance` + `,"revision":R` + `,"seq":N` (when present) +
    /// `,"time":T` + `}`, every piece a slice of the frame. The writer records these ranges as it writes (to hash a
    /// new frame), the direct reader as it reads (`Payload`): one definition of the splice for both.
    ///
    /// Value type, `Sendable`; pure.
    struct PayloadSlices: Sendable {
        /// `,"revision":R` in the header.
        var revisionMember: Range<Int>
        /// `,"time":T` in the header.
        var timeMember: Range<Int>
        /// The body members before `seq`: `"action":…`?, `"author":…`, `"changes":[…]`, `,"client_instance":…`?.
        var bodyBeforeSeq: Range<Int>
        /// `,"seq":N`, or an empty range (server-made commits).
        var seqMember: Range<Int>

        /// Calls `body` with each slice of payload_R in `frame`, in order; `{` and `}` are the frame's first and last
        /// bytes.
        func forEach(in frame: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) {
            body(UnsafeRawBufferPointer(rebasing: frame[0..<1]))
            body(UnsafeRawBufferPointer(rebasing: frame[bodyBeforeSeq]))
            body(UnsafeRawBufferPointer(rebasing: frame[revisionMember]))
            body(UnsafeRawBufferPointer(rebasing: frame[seqMember]))
            body(UnsafeRawBufferPointer(rebasing: frame[timeMember]))
            body(UnsafeRawBufferPointer(rebasing: frame[(frame.count - 1)..<frame.count]))
        }

        /// payload_R's bytes.
        func payload(in frame: [UInt8]) -> [UInt8] {
            var payload: [UInt8] = []
            frame.withUnsafeBytes { raw in forEach(in: raw) { payload.append(contentsOf: $0) } }
            return payload
        }

        /// d_R = SHA-256(`previous` ‖ payload_R), the slices fed to the hasher in place.
        func chainedDigest(in frame: [UInt8], previous: Digest) -> Digest {
            var hasher = DigestHasher(previous: previous)
            frame.withUnsafeBytes { raw in forEach(in: raw) { hasher.update($0) } }
            return hasher.finalize()
        }
    }

    /// The canonical payload of a changeset frame that `ServerMessage.decode`'s direct reader
    /// (`ChangesetFrameReader`) read, as slices of the frame's own bytes (`PayloadSlices`): its digest is computed by
    /// hashing those slices, with no re-encoding. The direct reader accepts only the bytes `ChangesetFrame.encode`
    /// writes for the changeset it returns (fixed member order, no whitespace, integers without leading zeros or
    /// `-0`, strings without escapes, which the writer uses only for `"`, `\` and control characters, lowercase
    /// UUIDs), so the writer's splice holds for it.
    ///
    /// Value type, `Sendable`: it shares the frame's bytes (no copy) and keeps them alive; pure, safe from any
    /// thread. Only the direct reader makes one, together with the changeset it read from the same bytes.
    public struct Payload: Sendable {
        /// The whole frame.
        let frame: [UInt8]
        /// The revision and digest the frame carries (the changeset's), to refuse pairing with another changeset.
        let revision: Revision
        let digest: Digest
        let slices: PayloadSlices

        /// payload_R, assembled from the slices (tests; `chainedDigest` hashes them in place).
        var bytes: [UInt8] { slices.payload(in: frame) }

        /// d_R = SHA-256(`previous` ‖ payload_R), the slices fed to the hasher in order.
        public func chainedDigest(previous: Digest) -> Digest {
            slices.chainedDigest(in: frame, previous: previous)
        }
    }

    /// Checks that a changeset's digest continues the chain, hashing the frame's own bytes when `payload` is the one
    /// the direct reader recorded with this changeset, and re-encoding it (`verify(_:previousDigest:)`) otherwise
    /// (frames the strict path read, changesets built in memory). Both give the same verdict.
    /// - Parameters:
    ///   - changeset: the decoded changeset, unchanged since it was decoded with `payload`.
    ///   - previousDigest: d_R−1.
    ///   - payload: what `ServerMessage.decodeWithPayload` returned with the changeset, or nil.
    /// - Returns: true when SHA-256(`previousDigest` ‖ payload_R) equals `changeset.digest`.
    public static func verify(_ changeset: Changeset, previousDigest: Digest, payload: Payload?) -> Bool {
        guard let payload, payload.revision == changeset.revision, payload.digest == changeset.digest else {
            return verify(changeset, previousDigest: previousDigest)
        }
        return payload.chainedDigest(previous: previousDigest) == changeset.digest
    }
}
