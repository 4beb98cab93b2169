/// Keeps every flush of a session within a budget: one TLS record for live writes, a quarter of one for catch-up
/// (snapshots, backlog pages). Decides when to flush before a write and how to cut a larger write into flushed
/// pieces, as a `Plan`: `SessionOutbound` plans each write with it, `SessionHandler.write(_:as:promise:context:)`
/// performs the plan.
///
/// Value type, no I/O, no callbacks: the session's event loop owns it and performs the plans it returns.
struct TLSFlushBudget {
    /// The most bytes the TLS layer gets to encrypt between two flushes of live writes (the size its per-connection
    /// buffer keeps): one record's worth (16,384 bytes), less a margin for the small frames written around the
    /// session (pongs, a close). Under flat-out fan-out a visit carries many changesets; 4 KiB flushes there cost the
    /// shared bench's fan-out about a tenth of its deliveries (docs/BENCHMARKS.md).
    static let maxBytesPerFlush = 16 * 1024 - 512

    /// The budget of catch-up writes (a snapshot, a backlog page, the presence list): 4 KiB less the same margin, so
    /// a session that caught up and then idles keeps a 4 KiB buffer, not a record's (idle after a snapshot: 37.0 →
    /// 28.7 KiB per session; catching up 100,000 changesets 0.24–0.33 → 0.32–0.37 s).
    static let catchUpBytesPerFlush = 4 * 1024 - 512

    /// What one write adds to the encrypted bytes beyond its own: it becomes at least one TLS 1.3 record (a 5-byte
    /// header, a 1-byte content type, a 16-byte tag), rounded up.
    static let bytesPerRecord = 32

    /// The largest piece one live write may hand over.
    static let largestPiece = maxBytesPerFlush - bytesPerRecord

    /// What was written since the last flush, overhead included.
    private(set) var unflushed = 0

    /// How one write goes out, decided before any of it is written: the caller performs it after this value's
    /// mutation has ended, so a flush that re-enters the session (NIO fires writability changes and errors from
    /// inside `flush`) never meets the budget in the middle of a change (docs/ARCHITECTURE.md, "Re-entrancy").
    struct Plan: Equatable {
        /// Flush what was written before, first: the write would take the unflushed bytes past the limit.
        var flushFirst: Bool
        /// Pieces of `pieceLength` bytes, each written and then flushed, before the last piece.
        var wholePieces: Int
        var pieceLength: Int
        /// The final piece (possibly 0 bytes when the write is empty), written and left unflushed.
        var lastPiece: Int
    }

    /// Plans writing `length` bytes: a flush first when they would take the unflushed bytes past `limit`, and
    /// pieces of `limit − bytesPerRecord` bytes, each followed by a flush, when they are more than that. The last
    /// piece is written and left unflushed. The budget counts the plan as performed.
    /// - Parameter limit: `maxBytesPerFlush` (live) or `catchUpBytesPerFlush`.
    mutating func plan(_ length: Int, limit: Int = maxBytesPerFlush) -> Plan {
        let pieceLength = limit - Self.bytesPerRecord
        let flushFirst = unflushed > 0 && unflushed + length + Self.bytesPerRecord > limit
        let wholePieces = length > pieceLength ? (length - 1) / pieceLength : 0
        let lastPiece = length - wholePieces * pieceLength
        unflushed = (flushFirst || wholePieces > 0 ? 0 : unflushed) + lastPiece + Self.bytesPerRecord
        return Plan(flushFirst: flushFirst, wholePieces: wholePieces, pieceLength: pieceLength, lastPiece: lastPiece)
    }

    /// Records a flush made elsewhere.
    mutating func flushed() {
        unflushed = 0
    }
}
