import APNsClient
import ServiceLifecycle

/// Shuts the gateway's channel manager down when the gateway stops: its HTTP/2 clients own threads.
public struct ChannelManagerService: Service {
    let manager: APNsChannelManager

    public init(manager: APNsChannelManager) {
        self.manager = manager
    }

    public func run() async throws {
        try? await gracefulShutdown()
        await manager.shutdown()
    }
}
