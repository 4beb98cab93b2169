/// The protocol's fixed facts: its version, its endpoint path and its size and time limits.
///
/// Daemon and client both read these, so the wire has one definition. A namespace of constants; `Sendable`.
public enum WireProtocol {
    /// The newest protocol version: what goald's clients put in `hello` and what the server answers in `welcome`
    /// when the hello asked for it. Version 2 is version 1 plus lean live changesets (`delta` frames).
    public static let version = 2

    /// The versions a server accepts in `hello` (and answers in `welcome`); it refuses any other with close code
    /// 4426.
    public static let supportedVersions: ClosedRange<Int> = 1...2

    /// The first version whose sessions get live changesets as `delta` frames.
    public static let leanChangesetsVersion = 2

    /// The WebSocket endpoint: `wss://host:port/v1/stream`.
    public static let path = "/v1/stream"

    /// The largest inbound (client → server) message, after aggregating fragments: 64 KiB.
    public static let maxInboundMessageBytes = 64 * 1024

    /// The most bytes a client may send before its `hello` has been accepted (the hello itself included): 4 KiB.
    public static let maxBytesBeforeHello = 4 * 1024

    /// The largest encoded `snapshot_chunk` frame: 64 KiB.
    public static let maxChunkBytes = 64 * 1024

    /// TLS, the WebSocket upgrade and the `hello` must all complete within this many seconds.
    public static let handshakeTimeoutSeconds = 10

    /// A peer from which nothing (not even a pong) has been read for this many seconds is dead.
    public static let idleTimeoutSeconds = 40

    /// A server keeps a client instance's exactly-once record at least this long (7 days) after it last recorded
    /// a result for that instance; a client never sends a mutation this long or longer after it first sent it
    /// (docs/PROTOCOL.md §6).
    public static let minimumClientRecordAgeSeconds = 7 * 24 * 3600

    /// The longest `token` a `hello` may carry (a token is 256 bits, base64url: 43 characters).
    public static let maxTokenBytes = 256
}
