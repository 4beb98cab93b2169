import CoreMetrics
import Foundation
import GoalModel
import GoalStore
import GoalWire
import Logging
import NIOCore
import NIOPosix

/// `hello` → `welcome`: authentication off the event loop, limits, registration with the shard and the choice
/// of backlog, snapshot or live (docs/PROTOCOL.md §3 "Resume rules").
extension SessionHandler {
    func receiveHello(_ hello: ClientMessage.Hello) {
        guard WireProtocol.supportedVersions.contains(hello.protocolVersion) else {
            let versions = WireProtocol.supportedVersions
            fail(
                .protocolVersion,
                "protocol \(hello.protocolVersion) is not supported; this server speaks \(versions.lowerBound) to "
                    + "\(versions.upperBound)"
            )
            return
        }
        guard let context else { return }
        inbound.authenticating(hello)
        let hash = TokenSecret.hash(presented: hello.token)
        let core = self.core
        let since = hello.since
        core.threadPool.runIfActive(eventLoop: context.eventLoop) { () throws -> HelloFacts in
            let token = try core.tokens.lookup(hash)
            guard token != nil else {
                return HelloFacts(
                    token: nil,
                    bounds: LogBounds(oldestRetainedRevision: nil, head: 0, headDigest: .genesis),
                    digestAtSince: nil
                )
            }
            let bounds = try core.storage.logBounds()
            return HelloFacts(
                token: token,
                bounds: bounds,
                digestAtSince: try Self.digest(at: since, bounds: bounds, storage: core.storage)
            )
        }.assumeIsolated().whenComplete { result in
            switch result {
            case .success(let facts): self.completeHelloWhenCaughtUp(hello, facts)
            case .failure(let error):
                self.logger.error("hello could not read the store", metadata: ["goal.error": "\(error)"])
                self.fail(.internalError, "the server could not read its store; try again")
            }
        }
    }

    /// d_since from the log, or nil when `since` is absent, ahead of the head or pruned.
    private static func digest(at since: Revision?, bounds: LogBounds, storage: any LeagueStorage) throws -> Digest? {
        guard let since else { return nil }
        if since == 0 { return .genesis }
        if since == bounds.head { return bounds.headDigest }
        guard since < bounds.head, bounds.backlogCovers(since: since - 1) else { return nil }
        guard let frame = try storage.backlog(after: since - 1, upTo: since, limit: 1).first else { return nil }
        return ChangesetFrame.peek(frame.bytes)?.digest
    }

    /// A client that resumes from a revision the store has and this node has not published yet (it was on a node
    /// that is ahead) is answered once this node caught up, as the node it left would answer it.
    private func completeHelloWhenCaughtUp(_ hello: ClientMessage.Hello, _ facts: HelloFacts) {
        guard let since = hello.since, since <= facts.bounds.head, since > core.engine.durableView.revision,
            let eventLoop = context?.eventLoop
        else {
            completeHello(hello, facts)
            return
        }
        let caughtUp = eventLoop.makePromise(of: Void.self)
        core.engine.whenDurable(atLeast: since) { caughtUp.succeed() }
        caughtUp.futureResult.assumeIsolated().whenSuccess { self.completeHello(hello, facts) }
    }

    private func completeHello(_ hello: ClientMessage.Hello, _ facts: HelloFacts) {
        guard case .authenticating = phase, let context else { return }
        guard let token = facts.token else {
            fail(
                .unauthorized,
                "unknown token: check GOAL_TOKEN, or run goal-client login with a token from goald token create"
            )
            return
        }
        guard !core.tokens.isRevoked(token) else {
            fail(.tokenRevoked, "token \(token.name) was revoked; ask an admin for a new one")
            return
        }
        if let refusal = core.connections.admitToken(token.id, name: token.name) {
            fail(.connectionLimit, refusal.description)
            return
        }
        let replaced: ReplyAddress?
        switch core.instances.claim(hello.clientInstance, for: address) {
        case .claimed(let previous):
            replaced = previous
        case .superseded:
            core.connections.releaseToken(token.id)
            fail(.sessionReplaced, "a newer session with the same client_instance is already connected")
            return
        }
        let identity = SessionIdentity(
            token: token,
            instance: hello.clientInstance,
            stream: hello.stream,
            protocolVersion: hello.protocolVersion
        )
        let pipelined = inbound.opened(identity)
        register(identity)
        core.metrics.sessions.increment()
        handshakeDeadline?.cancel()
        handshakeDeadline = nil
        logger[metadataKey: "goal.session.token"] = "\(token.name)"
        if let replaced { core.hub.replace(replaced) }

        let (head, headDigest) = shard.register(self)
        let mode = syncMode(for: hello, head: head, facts: facts)
        if identity.stream == .all { stream = SessionStream(mode: mode, since: hello.since, head: head) }
        sendNow(
            .welcome(
                ServerMessage.Welcome(
                    protocolVersion: identity.protocolVersion,
                    epoch: core.epoch,
                    head: head,
                    headDigest: headDigest,
                    mode: mode,
                    role: token.role,
                    serverTime: .now(),
                    node: core.nodeID,
                    history: true
                )
            )
        )
        openPresence(hello, identity: identity)  // right after welcome: presence_state, then the catch-up
        if mode == .snapshot { requestSnapshot(context: context) }  // after welcome: a cached one completes inline
        pumpCatchUp()
        replayPendingInbound(pipelined)
        flushIfNeeded()
    }

    /// Backlog, snapshot or live for this hello (docs/PROTOCOL.md §3).
    private func syncMode(for hello: ClientMessage.Hello, head: Revision, facts: HelloFacts) -> ServerMessage.SyncMode {
        if hello.stream == .acks { return .live }
        guard let since = hello.since else { return head == 0 ? .live : .snapshot }
        if let epoch = hello.epoch, epoch != core.epoch { return .snapshot }
        let durableHead = core.engine.durableView.revision
        if since > durableHead { return .snapshot }
        if let digest = hello.digest, digest != facts.digestAtSince { return .snapshot }
        if since > facts.bounds.head {
            // Durable, but committed after the bounds were read: the client is current, nothing to replay.
            return since >= head ? .live : .backlog
        }
        guard facts.bounds.backlogCovers(since: since) else { return .snapshot }
        return since >= head ? .live : .backlog
    }
}
