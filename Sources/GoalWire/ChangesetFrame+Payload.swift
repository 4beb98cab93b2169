public import GoalModel

extension ChangesetFrame {
    /// The canonical payload (docs/PROTOCOL.md §5) of a changeset frame that `ServerMessage.decode`'s direct reader
    /// (`ChangesetFrameReader`) read, as slices of the frame's own bytes: its digest is computed by hashing those
    /// slices, with no re-encoding.
    ///
    /// Why the slices are the payload: the direct reader accepts only the bytes `ChangesetFrame.encode` writes for
    /// the changeset it returns (fixed member order, no whitespace, integers without leading zeros or `-0`, strings
    /// without escapes, which the writer uses only for `"`, `\` and control characters, lowercase UUIDs), so the
    /// frame is `{"type":"changeset","revision":R,"digest":"…","time":T,<body>}` with `<body>` canonical, and
    /// payload_R = `{` + the body up to `client_instance` + `,"revision":R` + `,"seq":N` (when present) +
    /// `,"time":T` + `}`, every piece a slice of the frame. `ChangesetFrameReader` records the slices as it reads.
    ///
    /// Value type, `Sendable`: it shares the frame's bytes (no copy) and keeps them alive; pure, safe from any
    /// thread. Only the direct reader makes one, together with the changeset it read from the same bytes.
    public struct Payload: Sendable {
        /// The whole frame.
        let frame: [UInt8]
        /// The revision and digest the frame carries (the changeset's), to refuse pairing with another changeset.
        let revision: Revision
        let digest: Digest
        /// `,"revision":R` in the header.
        let revisionMember: Range<Int>
        /// `,"time":T` in the header.
        let timeMember: Range<Int>
        /// The body members before `seq`: `"action":…`?, `"author":…`, `"changes":[…]`, `,"client_instance":…`?.
        let bodyBeforeSeq: Range<Int>
        /// `,"seq":N`, or an empty range (server-made commits).
        let seqMember: Range<Int>

        /// The payload's slices of `frame`, in order; `{` and `}` are the frame's first and last bytes.
        var slices: [Range<Int>] {
            [0..<1, bodyBeforeSeq, revisionMember, seqMember, timeMember, (frame.count - 1)..<frame.count]
        }

        /// payload_R, assembled from the slices (tests; `chainedDigest` hashes them in place).
        var bytes: [UInt8] { slices.flatMap { frame[$0] } }

        /// d_R = SHA-256(`previous` ‖ payload_R), the slices fed to the hasher in order.
        public func chainedDigest(previous: Digest) -> Digest {
            var hasher = DigestHasher(previous: previous)
            frame.withUnsafeBytes { raw in
                hasher.update(UnsafeRawBufferPointer(rebasing: raw[0..<1]))
                hasher.update(UnsafeRawBufferPointer(rebasing: raw[bodyBeforeSeq]))
                hasher.update(UnsafeRawBufferPointer(rebasing: raw[revisionMember]))
                hasher.update(UnsafeRawBufferPointer(rebasing: raw[seqMember]))
                hasher.update(UnsafeRawBufferPointer(rebasing: raw[timeMember]))
                hasher.update(UnsafeRawBufferPointer(rebasing: raw[(raw.count - 1)..<raw.count]))
            }
            return hasher.finalize()
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
