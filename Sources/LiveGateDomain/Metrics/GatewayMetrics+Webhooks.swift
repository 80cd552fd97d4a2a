import Metrics

/// The webhook sender's metrics: batches by outcome, events delivered, and how far behind this
/// gateway's endpoints are.
extension GatewayMetrics {
    package static let webhookDeliveries = MetricDefinition(
        "livegate_webhook_deliveries_total", .counter, labels: ["outcome"],
        help: "Webhook batches (POSTs of up to 500 events) this gateway sent, by outcome: delivered (a 2xx) or failed.")
    package static let webhookEventsDelivered = MetricDefinition(
        "livegate_webhook_events_delivered_total", .counter,
        help: "Events in webhook batches a receiver answered with a 2xx (an event sent again after a crash counts again).")
    package static let webhookLag = MetricDefinition(
        "livegate_webhook_lag_seconds", .gauge,
        help:
            "The largest lag of the webhook endpoints this gateway is sending to: from the oldest event not yet delivered to now (0: none behind)."
    )

    package static func webhookBatch(delivered: Bool, events: Int) {
        Counter(label: webhookDeliveries.name, dimensions: [("outcome", delivered ? "delivered" : "failed")]).increment()
        if delivered, events > 0 { Counter(label: webhookEventsDelivered.name).increment(by: events) }
    }

    package static func webhookLag(seconds: Double) {
        Gauge(label: webhookLag.name).record(seconds)
    }
}
