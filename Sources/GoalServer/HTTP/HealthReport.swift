import GoalModel
import GoalWire

/// `GET /healthz`'s body: this node's id, the engine's durable head and digest, the league's epoch, the open
/// connections, the store's kind and availability, the store's head as last read and how far the node trails it
/// (all of the default league), and how many other leagues are loaded now (`leagues_loaded`).
///
/// Threading: `Sendable`; every member is safe from any event loop. Lifetime: the daemon's (one, made by
/// `DaemonComposition`).
struct HealthReport: Sendable {
    let engine: Engine
    let storeHead: ObservedStoreHead
    let connections: ConnectionLimiter
    let nodeID: String
    let epoch: LeagueEpoch
    /// `LeagueStorage.kind`: "sqlite", "memory", "postgres".
    let storeKind: String
    let leagues: LeagueHost

    /// The report as JSON, read now.
    func json() -> [UInt8] {
        let view = engine.durableView
        let storeHead = max(self.storeHead.revision, view.revision)
        let available = engine.isStoreAvailable
        // The node id is the operator's text: escaped as a JSON string by GoalWire's writer.
        let body =
            #"{"status":"ok","node":\#(JSONText.string(nodeID)),"head":\#(view.revision),"digest":"\#(view.digest.hex)","epoch":\#(JSONText.string(epoch.rawValue)),"connections":\#(connections.total),"store":"\#(storeKind)","store_available":\#(available),"store_head":\#(storeHead),"trailing":\#(storeHead - view.revision),"leagues_loaded":\#(leagues.loadedCount)}"#
        return Array(body.utf8)
    }
}
