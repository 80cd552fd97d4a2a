import CoreMetrics
import LiveGateAPI
import LiveGateDomain
import LiveGateStore
import Prometheus

/// The swift-metrics backend `livegate serve` bootstraps: records into a Prometheus registry under the
/// names, help texts and buckets of `GatewayMetrics`, whatever library recorded it. Labels another
/// library chose are renamed, and an HTTP method outside the standard ones is counted as `_OTHER`, so a
/// client cannot make new series by inventing methods. Labels outside the catalog keep their own
/// (sanitized) names, without help.
package struct GatewayMetricsFactory: MetricsFactory {
    package let registry: PrometheusCollectorRegistry
    private let definitions: [String: MetricDefinition]
    /// swift-prometheus's own buckets, for histograms outside the catalog.
    private let fallback: PrometheusMetricsFactory

    package init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        self.definitions = Dictionary(uniqueKeysWithValues: GatewayMetrics.all.map { ($0.recordedAs, $0) })
        self.fallback = PrometheusMetricsFactory(registry: registry)
    }

    package func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        if GatewayMetrics.dropped.contains(label) { return NOOPMetricsHandler.instance }
        let (name, labels, help) = exported(label, dimensions)
        return registry.makeCounter(name: name, labels: labels, help: help)
    }

    package func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler {
        if GatewayMetrics.dropped.contains(label) { return NOOPMetricsHandler.instance }
        let (name, labels, help) = exported(label, dimensions)
        return registry.makeCounter(name: name, labels: labels, help: help)
    }

    package func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        let (name, labels, help) = exported(label, dimensions)
        guard aggregate else { return registry.makeGauge(name: name, labels: labels, help: help) }
        return registry.makeValueHistogram(
            name: name, labels: labels, buckets: fallback.defaultValueHistogramBuckets, help: help)
    }

    package func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        let (name, labels, help) = exported(label, dimensions)
        return registry.makeGauge(name: name, labels: labels, help: help)
    }

    package func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        let (name, labels, help) = exported(label, dimensions)
        let buckets = definitions[label]?.buckets ?? fallback.defaultDurationHistogramBuckets
        return registry.makeDurationHistogram(name: name, labels: labels, buckets: buckets, help: help)
    }

    package func destroyCounter(_ handler: any CounterHandler) {
        if let counter = handler as? Prometheus.Counter { registry.unregisterCounter(counter) }
    }

    package func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) {
        if let counter = handler as? Prometheus.Counter { registry.unregisterCounter(counter) }
    }

    package func destroyRecorder(_ handler: any RecorderHandler) {
        if let gauge = handler as? Prometheus.Gauge { registry.unregisterGauge(gauge) }
        if let histogram = handler as? ValueHistogram { registry.unregisterValueHistogram(histogram) }
    }

    package func destroyMeter(_ handler: any MeterHandler) {
        if let gauge = handler as? Prometheus.Gauge { registry.unregisterGauge(gauge) }
    }

    package func destroyTimer(_ handler: any TimerHandler) {
        if let histogram = handler as? DurationHistogram { registry.unregisterDurationHistogram(histogram) }
    }

    /// The name, labels and help a recorded metric is shown with.
    private func exported(_ label: String, _ dimensions: [(String, String)]) -> (String, [(String, String)], String) {
        guard let definition = definitions[label] else { return (label, dimensions, "") }
        let labels = dimensions.map { dimension, value in
            let name = definition.renamedDimensions[dimension] ?? dimension
            return (name, Self.boundedValue(value, of: name))
        }
        return (definition.name, labels, definition.help)
    }

    /// Keeps label values from growing without bound where the client chooses them.
    static func boundedValue(_ value: String, of label: String) -> String {
        switch label {
        case "method": standardMethods.contains(value) ? value : "_OTHER"
        case "route": value == "Unknown" || value == "NotFound" ? GatewayMetrics.unmatchedRoute : value
        default: value
        }
    }

    static let standardMethods: Set<String> = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "CONNECT", "TRACE"]
}
