import GoalClient
import GoalModel
import GoalWire

extension LoadSubscriber {
    private static let chunkPrefix = Array(#"{"type":"snapshot_chunk""#.utf8)

    /// A lean subscriber's message: changesets are peeked (revision, digest, time) and their tail read for the
    /// author's mutation id; anything else is decoded, except snapshot chunks, which are skipped.
    ///
    /// - Returns: true when the stream broke (gap, undecodable message) and the subscriber must resume.
    func receiveLean(
        _ bytes: [UInt8],
        now: UInt64,
        _ s: inout SubscriberState,
        _ machine: inout ResumeSession
    ) -> Bool {
        let peeked = bytes.withUnsafeBufferPointer { buffer -> (ChangesetFrame.Header, (at: UInt64, server: Int)?)? in
            guard let header = ChangesetFrame.peek(buffer) else { return nil }
            let sent = FrameTail.read(buffer) { instance, seq in context.sendTimes.sent(instance: instance, seq: seq) }
            return (header, sent)
        }
        if let (header, sent) = peeked {
            switch machine.receive(.changeset(revision: header.revision, digest: header.digest)) {
            case .deliver:
                s.deliveries += 1
                if let sent { record(sent, now: now, on: machine.server) }
                return false
            case .duplicate:
                s.note("duplicate revision \(header.revision) after \(machine.position.since ?? 0)")
                return false
            case .resync(let reason):
                s.note(reason)
                return true
            case .welcomed, .caughtUp, .snapshotStarted, .snapshotComplete, .ignore:
                return false
            }
        }
        if bytes.starts(with: Self.chunkPrefix) { return false }
        let message: ServerMessage
        do {
            message = try ServerMessage.decode(bytes)
        } catch {
            s.note("undecodable message: \(error)")
            return true
        }
        if case .error(let code, let text) = message { serverError(code, text, &s) }
        guard let event = ResumeSession.StreamEvent(message) else { return false }
        switch machine.receive(event) {
        case .welcomed(_, let live, _):
            welcomed(live: live, now: now, &s)
        case .caughtUp:
            s.caughtUpAt = now
        case .snapshotStarted:
            s.inSnapshot = true
        case .snapshotComplete:
            s.inSnapshot = false
            s.snapshots += 1
            s.caughtUpAt = now
        case .resync(let reason):
            s.note(reason)
            return true
        case .deliver, .duplicate, .ignore:
            break
        }
        return false
    }

    /// A sampled subscriber's message: everything is decoded and applied to the replica, whose `apply` checks
    /// order and the digest chain.
    ///
    /// - Returns: true when the stream broke and the subscriber must resume.
    func receiveDecoded(
        _ bytes: [UInt8],
        now: UInt64,
        _ s: inout SubscriberState,
        _ machine: inout ResumeSession
    ) -> Bool {
        let message: ServerMessage
        do {
            message = try ServerMessage.decode(bytes)
        } catch {
            s.note("undecodable message: \(error)")
            return true
        }
        if case .error(let code, let text) = message { serverError(code, text, &s) }
        if case .snapshotChunk = message {
            return collect(message, &s)
        }
        guard let event = ResumeSession.StreamEvent(message) else { return false }
        if case .snapshotEnd = message, collect(message, &s) { return true }
        let before = machine.position
        switch machine.receive(event) {
        case .welcomed(_, let live, _):
            welcomed(live: live, now: now, &s)
            if case .welcome(let welcome) = message {
                s.replica?.adopt(epoch: welcome.epoch)
            }
        case .deliver:
            let changeset: Changeset
            do {
                guard let replica = s.replica, let full = try replica.changeset(in: message) else { return false }
                changeset = full
                try s.replica?.apply(changeset)
            } catch {
                s.note("\(error)")
                machine.rewind(to: before)
                return true
            }
            s.deliveries += 1
            if let id = changeset.mutationID {
                var name = id.instance.rawValue
                if let sent = name.withUTF8({ context.sendTimes.sent(instance: $0, seq: id.seq) }) {
                    record(sent, now: now, on: machine.server)
                }
            }
        case .duplicate:
            if case .changeset(let changeset) = message { s.note("duplicate revision \(changeset.revision)") }
        case .caughtUp:
            s.caughtUpAt = now
        case .snapshotStarted:
            if case .snapshotBegin(let begin) = message { s.assembler = SnapshotAssembler(begin) }
        case .snapshotComplete:
            s.snapshots += 1
            s.caughtUpAt = now
        case .resync(let reason):
            s.note(reason)
            return true
        case .ignore:
            break
        }
        return false
    }

    /// Records a delivery's latency; with several nodes, also as a delivery on the writer's node or another one.
    private func record(_ sent: (at: UInt64, server: Int), now: UInt64, on server: Int) {
        guard now > sent.at else { return }
        let path: LatencyRecorder.Path? =
            context.serverCount < 2 ? nil : sent.server == server ? .sameNode : .otherNode
        context.latency.record(nanoseconds: now - sent.at, shard: index, path: path)
    }

    /// Adds a snapshot chunk or end to the snapshot being assembled; its end replaces the replica.
    /// - Returns: true when the snapshot is broken and the subscriber must resume.
    private func collect(_ message: ServerMessage, _ s: inout SubscriberState) -> Bool {
        guard var assembler = s.assembler else {
            s.note("\(message.type) arrived outside a snapshot")
            return true
        }
        do {
            if let snapshot = try assembler.receive(message) {
                s.replica?.replace(with: snapshot)
                s.assembler = nil
            } else {
                s.assembler = assembler
            }
        } catch {
            s.note("\(error)")
            s.assembler = nil
            return true
        }
        return false
    }

    /// A reconnect-class error (slow consumer, overloaded, shutting down) is the server's documented way to shed
    /// load: counted, and the subscriber resumes after the close. Only terminal errors are problems.
    private func serverError(_ code: WireErrorCode, _ text: String, _ s: inout SubscriberState) {
        if code.closeCode.shouldReconnect {
            s.sheddings += 1
        } else {
            s.note("server error \(code.rawValue): \(text)")
        }
    }

    private func welcomed(live: Bool, now: UInt64, _ s: inout SubscriberState) {
        s.phase = .live
        s.everConnected = true
        if live { s.caughtUpAt = now }
    }
}
