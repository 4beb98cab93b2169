import GoalClient
import GoalModel
import GoalWire

extension LoadSubscriber {
    private static let chunkPrefix = Array(#"{"type":"snapshot_chunk""#.utf8)

    /// A lean subscriber's message: changesets are peeked (revision, digest, time) and their tail read for the
    /// author's mutation id; anything else is decoded, except snapshot chunks, which are skipped.
    ///
    /// - Returns: true when the stream broke (gap, undecodable message) and the subscriber must resume.
    func receiveLean(_ bytes: [UInt8], now: UInt64, _ s: inout SubscriberState) -> Bool {
        let peeked = bytes.withUnsafeBufferPointer { buffer -> (ChangesetFrame.Header, UInt64?)? in
            guard let header = ChangesetFrame.peek(buffer) else { return nil }
            let sent = FrameTail.read(buffer) { instance, seq in context.sendTimes.sentAt(instance: instance, seq: seq)
            }
            return (header, sent)
        }
        if let (header, sent) = peeked {
            switch s.check.observe(header.revision) {
            case .next:
                s.digest = header.digest
                s.deliveries += 1
                if let sent, now > sent { context.latency.record(nanoseconds: now - sent, shard: index) }
                return false
            case .duplicate:
                s.note("duplicate revision \(header.revision) after \(s.check.revision)")
                return false
            case .gap(let missing):
                s.note("gap: \(missing) revisions missing before \(header.revision)")
                return true
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
        switch message {
        case .welcome(let welcome):
            welcomed(welcome, now: now, &s)
            s.epoch = welcome.epoch
        case .caughtUp:
            s.caughtUpAt = now
        case .snapshotBegin:
            s.inSnapshot = true
        case .snapshotEnd(let revision, let digest):
            s.inSnapshot = false
            s.check.reset(to: revision)
            s.digest = digest
            s.caughtUpAt = now
        case .error(let code, let text):
            serverError(code, text, &s)
        default:
            break
        }
        return false
    }

    /// A sampled subscriber's message: everything is decoded and applied to the replica, whose `apply` checks
    /// order and the digest chain.
    ///
    /// - Returns: true when the stream broke and the subscriber must resume.
    func receiveDecoded(_ bytes: [UInt8], now: UInt64, _ s: inout SubscriberState) -> Bool {
        let message: ServerMessage
        do {
            message = try ServerMessage.decode(bytes)
        } catch {
            s.note("undecodable message: \(error)")
            return true
        }
        if var assembler = s.assembler {
            do {
                if let snapshot = try assembler.receive(message) {
                    s.replica?.replace(with: snapshot)
                    s.assembler = nil
                    s.caughtUpAt = now
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
        switch message {
        case .welcome(let welcome):
            welcomed(welcome, now: now, &s)
            s.replica?.adopt(epoch: welcome.epoch)
        case .changeset(let changeset):
            do {
                guard try s.replica?.apply(changeset) == true else {
                    s.note("duplicate revision \(changeset.revision)")
                    return false
                }
            } catch {
                s.note("\(error)")
                return true
            }
            s.deliveries += 1
            if let id = changeset.mutationID {
                var name = id.instance.rawValue
                let sent = name.withUTF8 { context.sendTimes.sentAt(instance: $0, seq: id.seq) }
                if let sent, now > sent { context.latency.record(nanoseconds: now - sent, shard: index) }
            }
        case .caughtUp:
            s.caughtUpAt = now
        case .snapshotBegin(let begin):
            s.assembler = SnapshotAssembler(begin)
        case .error(let code, let text):
            serverError(code, text, &s)
        default:
            break
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

    private func welcomed(_ welcome: ServerMessage.Welcome, now: UInt64, _ s: inout SubscriberState) {
        s.phase = .live
        s.everConnected = true
        if welcome.mode == .live { s.caughtUpAt = now }
    }
}
