import GoalReactive
public import GoalWire

/// Why `GoalClient.history(_:)` produced no page. Value type, `Sendable`; `description` is for people.
public struct HistoryError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// The server refused the request (`unknown_entity`, `bad_history_request`, `busy`).
        case refused(HistoryRefusal)
        /// The server's `welcome` did not offer history (an older goald).
        case unsupported
        /// The client stopped before the answer came.
        case stopped
    }

    public let kind: Kind
    public let description: String

    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}

/// The client's `history` requests: waiting in order, at most one on the wire (the server answers one at a time
/// per session). A request sent on a connection that dropped is sent again on the next one (it only reads).
///
/// Value type inside `GoalClient.State`; changed on the client's scheduler only.
struct HistoryQueue {
    struct Waiting {
        var request: HistoryRequest
        var observer: Signal<HistoryPageMessage, HistoryError>.Observer
    }

    private(set) var waiting: [Waiting] = []
    /// True while the first waiting request is on the wire.
    private(set) var inFlight = false
    /// What the current connection's `welcome` said; nil before it (or without a connection).
    var serverOffersHistory: Bool?

    mutating func append(_ waiting: Waiting) { self.waiting.append(waiting) }

    /// The request to send now, if one waits, none is on the wire and the server offers history; marks it sent.
    mutating func next() -> HistoryRequest? {
        guard serverOffersHistory == true, !inFlight, let first = waiting.first else { return nil }
        inFlight = true
        return first.request
    }

    /// The answer to the request on the wire: removes and returns its waiter.
    mutating func answered() -> Waiting? {
        guard inFlight, !waiting.isEmpty else { return nil }
        inFlight = false
        return waiting.removeFirst()
    }

    /// The connection is gone: what was on the wire waits for the next one.
    mutating func connectionLost() {
        inFlight = false
        serverOffersHistory = nil
    }

    /// Removes every waiter (the client stopped, or the server offers no history).
    mutating func removeAll() -> [Waiting] {
        defer {
            waiting = []
            inFlight = false
        }
        return waiting
    }
}
