import HTTPTypes
import Hummingbird
import LiveGateDomain
import NIOCore
import Prometheus

/// `GET /metrics`: the registry in Prometheus's text format (0.0.4). No API key: what it shows holds no
/// tenant's identifiers or secrets (see `GatewayMetrics`); `LIVEGATE_METRICS_ADDRESS` moves it off the
/// public port.
package struct MetricsController<Context: RequestContext>: Sendable {
    let registry: PrometheusCollectorRegistry

    package init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
    }

    package var routes: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.get("/metrics") { _, _ in self.scrape() }
        return routes
    }

    func scrape() -> Response {
        Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
    }
}
