import GoalModel
import GoalStore
import GoalWire
import Logging
import NIOCore

/// `hello` → `welcome` (docs/PROTOCOL.md §3 "Resume rules"): the token and the log's bounds are read off the event
/// loop (`authenticate`), a client ahead of this node waits for it, the registries admit the token, the session
/// registers with its shard, and the sync mode (backlog, snapshot or live) follows from what was read.
extension SessionMachine {
    /// What the off-loop part of `hello` found out (or why it failed); `durableRevision` is the engine's durable
    /// head now.
    mutating func helloRead(
        _ result: Result<HelloFacts, any Error>,
        hello: ClientMessage.Hello,
        durableRevision: Revision
    ) -> [SessionAction] {
        switch result {
        case .failure(let error):
            fail(.internalError, "the server could not read its store; try again")
            return [.log(.error, "hello could not read the store", ["goal.error": "\(error)"])]
        case .success(let facts):
            if case .member(_, let epoch) = facts.standing { configuration.epoch = epoch }
            // A client that resumes from a revision the store has and this node has not published yet (it was on a
            // node that is ahead) is answered once this node caught up, as the node it left would answer it.
            if let since = hello.since, since <= facts.bounds.head, since > durableRevision {
                return [.awaitDurable(since, hello, facts)]
            }
            return helloReady(hello, facts)
        }
    }

    /// The hello's facts, once this node has what the client has.
    mutating func helloReady(_ hello: ClientMessage.Hello, _ facts: HelloFacts) -> [SessionAction] {
        guard case .authenticating = phase else { return [] }
        guard let token = facts.token else {
            fail(
                .unauthorized,
                "unknown token: check GOAL_TOKEN, or run goal-client login with a token from goald token create"
            )
            return []
        }
        switch facts.standing {
        case .member:
            return [.admit(token, hello, facts)]
        case .unknown(let league):
            fail(
                .unknownLeague,
                "this server has no league \"\(league)\"; goal-client leagues lists the leagues your token may use"
            )
        case .forbidden(let league):
            fail(
                .leagueForbidden,
                "token \(token.name) may not use league \"\(league)\"; ask an operator for a token of that league "
                    + "(goald token create --league \(league))"
            )
        }
        return []
    }

    /// The registries' answer to the token.
    mutating func admitted(
        _ admission: SessionAdmission,
        token: StoredToken,
        hello: ClientMessage.Hello,
        facts: HelloFacts
    ) -> [SessionAction] {
        let replaced: ReplyAddress?
        switch admission {
        case .revoked:
            fail(.tokenRevoked, "token \(token.name) was revoked; ask an admin for a new one")
            return []
        case .connectionLimit(let refusal):
            fail(.connectionLimit, refusal.description)
            return []
        case .superseded:
            fail(.sessionReplaced, "a newer session with the same client_instance is already connected")
            return []
        case .admitted(let previous):
            replaced = previous
        }
        var role = token.role
        if case .member(let leagueRole, _) = facts.standing { role = leagueRole }
        let identity = SessionIdentity(
            token: token,
            instance: hello.clientInstance,
            stream: hello.stream,
            protocolVersion: hello.protocolVersion,
            role: role
        )
        let pipelined = inbound.opened(identity)
        register(identity)
        var actions: [SessionAction] = [
            .count(.sessionOpened), .cancelHandshakeDeadline, .tagLogger(token: token.name),
        ]
        if let replaced { actions.append(.replaceSession(replaced)) }
        actions.append(.joinShard(hello, facts, pipelined: pipelined))
        return actions
    }

    /// Takes the identity of an accepted hello (the registration) and the frame variant it implies.
    mutating func register(_ identity: SessionIdentity) {
        registration = identity
        frameVariant = FrameVariant(for: identity, negotiatedDeflate: configuration.negotiatedDeflate)
    }

    /// Registered with the shard, whose head is `head`: `welcome`, presence, then the catch-up, then the messages
    /// pipelined behind the hello. `durableRevision` is the engine's durable head now.
    mutating func joinedShard(
        _ hello: ClientMessage.Hello,
        _ facts: HelloFacts,
        pipelined: [ByteBuffer],
        head: Revision,
        headDigest: Digest,
        durableRevision: Revision,
        now: SessionNow
    ) -> [SessionAction] {
        guard let identity = registration else { return [] }
        let mode = syncMode(for: hello, head: head, facts: facts, durableRevision: durableRevision)
        if identity.stream == .all { stream = SessionStream(mode: mode, since: hello.since, head: head) }
        var actions = sendNow(
            .welcome(
                ServerMessage.Welcome(
                    protocolVersion: identity.protocolVersion,
                    epoch: configuration.epoch,
                    head: head,
                    headDigest: headDigest,
                    mode: mode,
                    role: identity.role,
                    serverTime: now.wall,
                    node: configuration.nodeID,
                    history: true
                )
            )
        )
        actions += openPresence(hello, identity: identity, now: now)  // right after welcome, then the catch-up
        if mode == .snapshot { actions.append(.requestSnapshot) }  // after welcome: a cached one completes inline
        actions += [.pumpCatchUp, .replay(pipelined), .flush]
        return actions
    }

    /// Backlog, snapshot or live for this hello (docs/PROTOCOL.md §3).
    func syncMode(
        for hello: ClientMessage.Hello,
        head: Revision,
        facts: HelloFacts,
        durableRevision: Revision
    ) -> ServerMessage.SyncMode {
        if hello.stream == .acks { return .live }
        guard let since = hello.since else { return head == 0 ? .live : .snapshot }
        if let epoch = hello.epoch, epoch != configuration.epoch { return .snapshot }
        if since > durableRevision { return .snapshot }
        if let digest = hello.digest, digest != facts.digestAtSince { return .snapshot }
        if since > facts.bounds.head {
            // Durable, but committed after the bounds were read: the client is current, nothing to replay.
            return since >= head ? .live : .backlog
        }
        guard facts.bounds.backlogCovers(since: since) else { return .snapshot }
        return since >= head ? .live : .backlog
    }
}
