public import GoalModel
import GoalReactive
import GoalWire

/// Presence: who is in the league (`presence`), and what this client announces (`announce`). Runs on the
/// scheduler only, like every state change of the client.
extension GoalClient {
    /// Says what this client is doing: `.editing(match)` while an edit form is open, `.viewing(nil)` otherwise.
    /// Sent once the connection's `presence_state` arrived (an older server, which sends none, would close the
    /// session on an unknown message type), and again after every reconnect. The server rate-limits announcements
    /// (the latest one wins), so calling this often is harmless.
    public func announce(_ activity: PresenceActivity) {
        onScheduler { client in
            guard client.state.activity != activity else { return }
            client.state.activity = activity
            if client.state.presenceSupported, client.configuration.presence.isListed {
                client.driver.send(ClientMessage.presence(activity).encoded())
            }
        }
    }

    /// Handles `presence_state` and `presence`. Returns false for every other message.
    func receivePresence(_ message: ServerMessage) -> Bool {
        switch message {
        case .presenceState(let members):
            presenceStorage.value = members
            presenceKnownStorage.value = true
            presenceListArrived()
        case .presence(let event):
            var members = presenceStorage.value
            members.apply(event)
            presenceStorage.value = members
        default:
            return false
        }
        return true
    }

    /// The server sent its presence list, so it knows presence: announce what this client does (the server lists
    /// every session as `online` at first).
    private func presenceListArrived() {
        state.presenceSupported = true
        guard state.activity != .online, configuration.presence.isListed else { return }
        driver.send(ClientMessage.presence(state.activity).encoded())
    }

    /// The connection ended: nobody is known to be present until the next `presence_state`.
    func presenceDisconnected() {
        state.presenceSupported = false
        if !presenceStorage.value.isEmpty { presenceStorage.value = [] }
        if presenceKnownStorage.value { presenceKnownStorage.value = false }
    }
}
