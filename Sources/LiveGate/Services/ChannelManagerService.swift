import APNsClient
import LiveGateAPI
import LiveGateDomain
import LiveGateStore
import ServiceLifecycle

/// Shuts the gateway's channel manager down when the gateway stops: its HTTP/2 clients own threads.
package struct ChannelManagerService: Service {
    let manager: APNsChannelManager

    package init(manager: APNsChannelManager) {
        self.manager = manager
    }

    package func run() async throws {
        try? await gracefulShutdown()
        await manager.shutdown()
    }
}
