import GoalReactive

extension GoalClient {
    /// Reconnects at once, at a person's request (a UI's "reconnect now" key): skips the backoff wait in
    /// progress, or starts the client again if it is idle or stopped (even after a terminal close: the person
    /// asked, and a new token or a fixed server may let it through). Live, connecting or syncing: nothing happens.
    ///
    /// Threading: callable from any thread; the work runs on the client's scheduler.
    public func reconnectNow() {
        onScheduler { client in
            switch client.driver.machine.reconnect.state {
            case .idle, .stopped:
                client.driver.start()
            case .waiting:
                client.driver.reconnectNow()
            case .connecting, .connected:
                break
            }
        }
    }
}
