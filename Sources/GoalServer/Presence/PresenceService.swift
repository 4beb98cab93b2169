import ServiceLifecycle

/// The presence registry's life as a swift-service-lifecycle `Service` in the daemon's own group: listens on the
/// bus and refreshes this node's list (`PresenceRegistry.run()`) until shutdown. A graceful shutdown then says
/// goodbye (`stop()`: the other nodes drop this node's members at once); a cancellation (the daemon failed) does
/// not, and the other nodes time the node out. Without a bus, `run()` returns at once.
///
/// Threading: `Sendable`; `run()` is one task. Lifetime: the group's.
struct PresenceService: Service {
    let registry: PresenceRegistry

    func run() async {
        await cancelWhenGracefulShutdown { await registry.run() }
        if Task.isShuttingDownGracefully, !Task.isCancelled { await registry.stop() }
    }
}
