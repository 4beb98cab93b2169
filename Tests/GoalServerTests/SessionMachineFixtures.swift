import GoalModel
import GoalStore
import GoalWire
import NIOCore

@testable import GoalServer

/// What the pure `SessionMachine` suites share: a machine at a fixed start (awaiting its hello, or open with a
/// stream), times as `SessionNow`, and readable forms of the actions the machine returns. No socket, no clock.
protocol SessionMachineFixtures {}

extension SessionMachineFixtures {
    static var start: NIODeadline { .uptimeNanoseconds(1_000_000_000) }

    static func at(milliseconds: Int64) -> SessionNow {
        SessionNow(uptime: start + .milliseconds(milliseconds), wall: Timestamp(millisecondsSince1970: milliseconds))
    }

    /// The epoch every fixture machine serves.
    static var epoch: LeagueEpoch { LeagueEpoch(rawValue: "epoch") }

    static func machine(_ limits: ServerLimits = ServerLimits(), open stream: SessionStream? = nil) -> SessionMachine {
        var machine = SessionMachine(
            SessionMachine.Configuration(
                limits: limits,
                epoch: epoch,
                nodeID: "node",
                sessionID: 7,
                shardIndex: 0,
                channelHighWaterMark: 256 * 1024
            ),
            connectedAt: start,
            now: start
        )
        if let stream {
            let hello = ClientMessage.Hello(token: "gt_x", clientInstance: .random())
            let token = StoredToken(
                name: "alice",
                role: .editor,
                secretHash: [],
                created: Timestamp(millisecondsSince1970: 0)
            )
            let identity = SessionIdentity(token: token, instance: hello.clientInstance, stream: .all)
            machine.inbound.authenticating(hello)
            _ = machine.inbound.opened(identity)
            machine.register(identity)
            machine.stream = stream
        }
        return machine
    }

    static var live: SessionStream { SessionStream(mode: .live, since: 0, head: 0) }

    /// The text of the frames an action list sends or writes, in order (frames are raw bytes; JSON stays readable).
    static func text(_ actions: [SessionAction]) -> String {
        actions.map { action -> String in
            switch action {
            case .send(let frame), .sendCatchUp(let frame): String(buffer: frame)
            case .writeUnbudgeted(let frames): frames.map { String(buffer: $0) }.joined()
            case .writeClose(let error, let close, _): (error.map { String(buffer: $0) } ?? "") + String(buffer: close)
            default: ""
            }
        }.joined()
    }

    /// Each action's case name, in order (`send`, `flush`, …).
    static func names(_ actions: [SessionAction]?) -> [String] {
        (actions ?? []).map { Mirror(reflecting: $0).children.first?.label ?? "\($0)" }
    }

    /// The close code of the close frame a performed close writes.
    static func closeCode(_ actions: [SessionAction]?) -> UInt16? {
        for case .writeClose(_, var close, _) in actions ?? [] {
            close.moveReaderIndex(forwardBy: 2)
            return close.readInteger(as: UInt16.self)
        }
        return nil
    }

    static func mutate(_ seq: UInt64) -> ByteBuffer {
        ByteBuffer(
            string:
                #"{"type":"mutate","seq":\#(seq),"base":0,"op":"delete_match","id":"6d1f0c2a-5b3e-4f47-9a8b-1c2d3e4f5a6b"}"#
        )
    }

    /// The payload of one unmasked server frame, as text (its header skipped).
    static func payload(_ frame: ByteBuffer) -> String {
        var frame = frame
        _ = frame.readInteger(as: UInt8.self)
        switch (frame.readInteger(as: UInt8.self) ?? 0) & 0x7F {
        case 126: _ = frame.readInteger(as: UInt16.self)
        case 127: _ = frame.readInteger(as: UInt64.self)
        default: break
        }
        return String(buffer: frame)
    }

    /// The text a server message is sent as.
    static func json(_ message: ServerMessage) -> String {
        String(decoding: message.encoded(), as: UTF8.self)
    }

    /// Each action with what it carries, in order: whole action lists compare as `[String]`. Frames show their
    /// payload text, a close its error's code, its close code and reason, and how the connection ends.
    static func describe(_ actions: [SessionAction]?) -> [String] {
        (actions ?? []).map { action -> String in
            switch action {
            case .send(let frame): "send \(payload(frame))"
            case .sendCatchUp(let frame): "sendCatchUp \(payload(frame))"
            case .writeUnbudgeted(let frames): "writeUnbudgeted [\(frames.map(payload).joined(separator: " | "))]"
            case .replay(let frames): "replay [\(texts(frames))]"
            case .writeClose(let error, var close, let then):
                "writeClose \(error.map(errorCode) ?? "-") \(closeReason(&close)) \(then)"
            case .authenticate(let hello): "authenticate \(hello)"
            case .awaitDurable(let since, let hello, let facts): "awaitDurable \(since) \(hello) \(facts)"
            case .admit(let token, let hello, let facts): "admit \(token) \(hello) \(facts)"
            case .joinShard(let hello, let facts, let pipelined):
                "joinShard \(hello) \(facts) [\(texts(pipelined))]"
            case .replaceSession(let address): "replaceSession \(address)"
            case .presence(let change): "presence \(change)"
            case .count(let metric): "count \(metric)"
            case .tagLogger(let token): "tagLogger \(token)"
            case .log(let level, let message, _): "log \(level) \(message)"
            default: "\(action)"
            }
        }
    }

    /// Inbound text frames (payloads, no header), in order.
    static func texts(_ frames: [ByteBuffer]) -> String {
        frames.map { String(buffer: $0) }.joined(separator: " | ")
    }

    /// The `error.code` of an error frame.
    static func errorCode(_ frame: ByteBuffer) -> String {
        // try?: a frame that does not decode is shown as not an error, which no expectation accepts.
        guard case .error(let code, _) = try? ServerMessage.decode(Array(payload(frame).utf8)) else {
            return "not an error: \(payload(frame))"
        }
        return code.rawValue
    }

    private static func closeReason(_ close: inout ByteBuffer) -> String {
        close.moveReaderIndex(forwardBy: 2)
        let code = close.readInteger(as: UInt16.self).map { "\($0)" } ?? "-"
        return "\(code) \(String(buffer: close))"
    }
}
