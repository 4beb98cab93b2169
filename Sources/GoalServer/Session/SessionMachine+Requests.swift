import GoalModel
import GoalStore
import GoalWire
import Logging
import NIOCore

/// The open session's client messages (docs/PROTOCOL.md §4, §5, §7): decoding, the mutation rate limit, the engine's
/// overloaded answer and its pause, and `history` requests, one outstanding per session (a second one is refused
/// `busy`, which bounds what a session can queue on the thread pool). History answers are written at once, also
/// between catch-up messages: they are not about the stream's order, and holding them while a session catches up
/// would let refusals pile up unbounded; written at once they count toward the session's queue bound.
extension SessionMachine {
    /// The first message: it must be `hello`, in a protocol version this server speaks.
    mutating func decodeHello(_ bytes: ByteBuffer, limit: Int) -> [SessionAction] {
        let hello: ClientMessage.Hello
        do throws(WireDecodingError) {
            guard case .hello(let decoded) = try ClientMessage.decode(Array(bytes.readableBytesView), limit: limit)
            else {
                fail(.notAuthenticated, "the first message must be hello")
                return []
            }
            hello = decoded
        } catch {
            fail(error.code, error.description, close: error.closeCode)  // not UTF-8: 1007 (RFC 6455 §8.1)
            return []
        }
        guard WireProtocol.supportedVersions.contains(hello.protocolVersion) else {
            let versions = WireProtocol.supportedVersions
            fail(
                .protocolVersion,
                "protocol \(hello.protocolVersion) is not supported; this server speaks \(versions.lowerBound) to "
                    + "\(versions.upperBound)"
            )
            return []
        }
        inbound.authenticating(hello)
        return [.authenticate(hello)]
    }

    /// A client message of the open session.
    mutating func message(_ bytes: ByteBuffer, limit: Int, now: SessionNow) -> [SessionAction] {
        guard case .open(let identity) = phase else { return [] }
        let message: ClientMessage
        do throws(WireDecodingError) {
            message = try ClientMessage.decode(Array(bytes.readableBytesView), limit: limit)
        } catch {
            // A mutate whose seq was readable but whose other fields were not is refused alone (PROTOCOL §7):
            // `rejected{seq, invalid}`, as a reply so it is held like any answer while catching up.
            // It costs a token like any mutation: unreadable mutations are no way around the rate limit.
            if let rejected = error.rejectedMutation, let seq = error.mutateSeq {
                if let refusal = takeMutationToken(seq: seq, now: now.uptime) { return refusal }
                return reply(ServerFrameEncoder.textFrame(rejected.encoded(), allocator: allocator)) + [.flush]
            }
            fail(error.code, error.description, close: error.closeCode)  // not UTF-8: 1007 (RFC 6455 §8.1)
            return []
        }
        switch message {
        case .hello:
            fail(.alreadyAuthenticated, "this session already said hello")
            return []
        case .mutate(let mutate):
            if let refusal = takeMutationToken(seq: mutate.seq, now: now.uptime) { return refusal }
            let request = MutationRequest(
                mutation: mutate.mutation(instance: identity.instance),
                author: identity.token.name,
                role: identity.role,
                replyTo: address
            )
            return [.submit(request, seq: mutate.seq)]
        case .history(let request):
            return history(request)
        case .presence(let activity):
            return receivePresence(activity, now: now)
        }
    }

    /// Takes a token from the session's mutation bucket.
    /// - Returns: nil when there was one, else the `rate_limited{seq}` answer.
    private mutating func takeMutationToken(seq: UInt64, now: NIODeadline) -> [SessionAction]? {
        guard mutationBucket.take(now: now) else {
            let wait = mutationBucket.millisecondsUntilNextToken()
            return [.count(.rateLimited)] + sendNow(.rateLimited(seq: seq, retryAfterMilliseconds: wait))
        }
        return nil
    }

    /// The engine's inbox was full: `overloaded{seq}`, and no reads for the advised wait.
    mutating func submitRefused(seq: UInt64) -> [SessionAction] {
        let delay = limits.overloadedRetryMilliseconds
        return [.count(.overloaded)] + sendNow(.overloaded(seq: seq, retryAfterMilliseconds: delay))
            + pauseReads(milliseconds: delay)
    }

    /// Encodes one message to send now, then flushes.
    func sendNow(_ message: ServerMessage) -> [SessionAction] {
        [.send(ServerFrameEncoder.textFrame(message.encoded(), allocator: allocator)), .flush]
    }

    /// An answer decided by the session itself (not by the engine): held while catching up.
    mutating func reply(_ frame: ByteBuffer) -> [SessionAction] {
        guard !isClosing else { return [] }
        guard stream != nil else { return [.send(frame)] }
        guard case .reply(let frame) = stream?.reply(frame) else { return [] }
        return [.send(frame)]
    }

    // MARK: - History

    private mutating func history(_ request: HistoryRequest) -> [SessionAction] {
        if let refusal = HistoryService.refusal(of: request) { return answerHistory(refusal) }
        guard !historyOutstanding else {
            return answerHistory(
                HistoryService.refused(request, .busy, "wait for the answer to your previous history request")
            )
        }
        historyOutstanding = true
        return [.readHistory(request)]
    }

    /// The history read ended.
    mutating func historyRead(_ result: Result<HistoryAnswer, any Error>) -> [SessionAction] {
        historyOutstanding = false
        switch result {
        case .success(let answer):
            return answerHistory(answer)
        case .failure(let error):
            fail(.internalError, "the server could not read its log; reconnect")
            return [.log(.error, "history read failed", ["goal.error": "\(error)"])]
        }
    }

    private func answerHistory(_ answer: HistoryAnswer) -> [SessionAction] {
        isClosing ? [] : sendNow(.history(answer))
    }
}
