import GoalClient
import GoalLocking
import GoalModel
import GoalTransport
import GoalWire
import NIOCore

/// The server's view at the end of a run: its head, the head's digest, and a full snapshot, fetched over a fresh
/// connection whose hello has no `since` (so the server sends a snapshot).
///
/// Value type, `Sendable`.
struct ServerView: Sendable {
    var head: Revision
    var headDigest: Digest
    var epoch: LeagueEpoch
    /// nil when the server had nothing to snapshot (head 0, `mode: live`).
    var snapshot: Snapshot?
}

/// Fetches a `ServerView` once.
///
/// Threading: the connection's events arrive on its event loop and feed a mutex-guarded assembler; the result is
/// handed to the awaiting task exactly once (answer, failure or timeout, whichever comes first).
enum ConvergenceProbe {
    private final class Box: Sendable {
        struct State: Sendable {
            var continuation: CheckedContinuation<Result<ServerView, LoadError>, Never>?
            var welcome: ServerMessage.Welcome?
            var assembler: SnapshotAssembler?
        }
        let state = LockedValue(State())

        func finish(_ result: Result<ServerView, LoadError>) {
            let continuation = state.withLock { s -> CheckedContinuation<Result<ServerView, LoadError>, Never>? in
                defer { s.continuation = nil }
                return s.continuation
            }
            continuation?.resume(returning: result)
        }
    }

    /// Connects, reads welcome and the snapshot, closes.
    /// - Parameters:
    ///   - context: The run's shared context (transport, token, addresses).
    ///   - slot: The connection slot for the source address.
    ///   - server: The node to ask (an index into the run's URLs); default the first.
    ///   - league: The league to read (named in the hello); nil: the default league, named nowhere.
    ///   - timeout: Seconds before giving up.
    static func fetch(
        context: LoadContext,
        slot: Int,
        server: Int = 0,
        league: LeagueSlug? = nil,
        timeout: Double
    ) async -> Result<ServerView, LoadError> {
        let box = Box()
        let connection = LockedValue<WebSocketConnection?>(nil)
        let result = await withCheckedContinuation { continuation in
            box.state.withLock { $0.continuation = continuation }
            let opened = context.open(slot: slot, server: server) { event in handle(event, box: box) }
            let hello = ClientMessage.Hello(
                token: context.token,
                clientInstance: .random(),
                stream: .all,
                league: league
            )
            opened.send(ClientMessage.hello(hello).encoded())
            connection.withLock { $0 = opened }
            opened.eventLoop.scheduleTask(in: .milliseconds(Int64(timeout * 1000))) {
                box.finish(.failure(.connect("no snapshot from the server within \(Int(timeout)) s")))
            }
        }
        connection.withLock { $0 }?.close(code: 1000)
        return result
    }

    private static func handle(_ event: TransportEvent, box: Box) {
        switch event {
        case .connected, .pong:
            return
        case .failed(let failure):
            box.finish(.failure(.connect("cannot connect for the final snapshot: \(failure)")))
        case .closed(let code, let reason):
            box.finish(
                .failure(
                    .connect("the final-snapshot connection closed (\(code.map(String.init) ?? "no code")): \(reason)")
                )
            )
        case .message(let bytes):
            if ChangesetFrame.peek(bytes) != nil { return }
            let message: ServerMessage
            do {
                message = try ServerMessage.decode(bytes)
            } catch {
                box.finish(.failure(.connect("undecodable message during the final snapshot: \(error)")))
                return
            }
            let outcome = box.state.withLock { s -> Result<ServerView, LoadError>? in
                switch message {
                case .welcome(let welcome):
                    s.welcome = welcome
                    if welcome.mode == .live {
                        return .success(
                            ServerView(head: welcome.head, headDigest: welcome.headDigest, epoch: welcome.epoch)
                        )
                    }
                case .snapshotBegin(let begin):
                    s.assembler = SnapshotAssembler(begin)
                case .snapshotChunk, .snapshotEnd:
                    guard var assembler = s.assembler, let welcome = s.welcome else { return nil }
                    do {
                        if let snapshot = try assembler.receive(message) {
                            return .success(
                                ServerView(
                                    head: snapshot.revision,
                                    headDigest: snapshot.digest,
                                    epoch: welcome.epoch,
                                    snapshot: snapshot
                                )
                            )
                        }
                        s.assembler = assembler
                    } catch {
                        return .failure(.connect("the final snapshot is malformed: \(error)"))
                    }
                case .error(let code, let text):
                    return .failure(.connect("the server refused the final snapshot (\(code.rawValue)): \(text)"))
                default:
                    break
                }
                return nil
            }
            if let outcome { box.finish(outcome) }
        }
    }
}
