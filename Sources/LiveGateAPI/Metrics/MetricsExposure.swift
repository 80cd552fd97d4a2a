import LiveGateDomain
import Prometheus

/// Where `GET /metrics` is served: on the gateway's own port, or alone on an address of its own
/// (`LIVEGATE_METRICS_ADDRESS`), kept off the public port.
package struct MetricsExposure: Sendable {
    package var registry: PrometheusCollectorRegistry
    /// Nil: on the gateway's port.
    package var address: (host: String, port: Int)?

    package init(registry: PrometheusCollectorRegistry, address: (host: String, port: Int)? = nil) {
        self.registry = registry
        self.address = address
    }
}
