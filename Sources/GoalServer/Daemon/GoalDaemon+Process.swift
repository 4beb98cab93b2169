import Foundation

/// How this process names itself to other nodes.
extension GoalDaemon {
    /// This process, as another node refused its node id is told: host, pid, port and state directory.
    var processDescription: String {
        let port = configuration.port == 0 ? "any port" : "port \(configuration.port)"
        return
            "host \(ProcessInfo.processInfo.hostName), pid \(getpid()), \(port), state \(configuration.stateDirectory)"
    }
}
