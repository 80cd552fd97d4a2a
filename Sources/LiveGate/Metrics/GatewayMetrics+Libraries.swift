import APNsClient
import LiveGateAPI
import LiveGateDomain
import PostgresClient

/// The metrics `GET /metrics` shows that a library records under its own label: Hummingbird's, the
/// PostgreSQL pool's and the APNs sender's. `GatewayMetricsFactory` renames them to these.
extension GatewayMetrics {
    package static let httpRequests = MetricDefinition(
        "livegate_http_requests_total", .counter, labels: ["route", "method", "status"], recordedAs: "hb.requests",
        renamedDimensions: httpDimensions,
        help: "HTTP requests answered, by route template, method and status.")
    package static let httpRequestDuration = MetricDefinition(
        "livegate_http_request_duration_seconds", .histogram, labels: ["route", "method", "status"],
        buckets: millisecondsToSeconds, recordedAs: "http.server.request.duration", renamedDimensions: httpDimensions,
        help: "Time from a request's arrival to its answer's last byte.")
    package static let httpRequestsInProgress = MetricDefinition(
        "livegate_http_requests_in_progress", .gauge, labels: ["method"], recordedAs: "http.server.active_requests",
        renamedDimensions: httpDimensions,
        help: "HTTP requests being handled now.")
    package static let apnsPushes = MetricDefinition(
        "livegate_apns_pushes_total", .counter, labels: ["kind", "status"], recordedAs: APNsMetrics.requestsLabel,
        help: "Pushes sent to APNs (every try), by kind (device, broadcast) and the HTTP status APNs answered (none: no answer).")
    package static let apnsAnswerDuration = MetricDefinition(
        "livegate_apns_answer_duration_seconds", .histogram, labels: ["kind"], buckets: millisecondsToSeconds,
        recordedAs: APNsMetrics.answerDurationLabel,
        help: "Time APNs took to answer a push, from sending the request to the answer's last byte.")
    package static let databaseConnectionsInUse = MetricDefinition(
        "livegate_db_pool_connections_in_use", .gauge, recordedAs: PostgresPoolMetrics.inUseLabel,
        help: "PostgreSQL connections handed out by the pool now.")
    package static let databaseConnectionsOpen = MetricDefinition(
        "livegate_db_pool_connections_open", .gauge, recordedAs: PostgresPoolMetrics.openLabel,
        help: "PostgreSQL connections open (in use or idle); at most LIVEGATE_DB_POOL_SIZE.")
    package static let databaseWaits = MetricDefinition(
        "livegate_db_pool_waits_total", .counter, recordedAs: PostgresPoolMetrics.waitsLabel,
        help: "Times a caller had to wait for a PostgreSQL connection because all were in use.")
    package static let databaseWaitDuration = MetricDefinition(
        "livegate_db_pool_wait_duration_seconds", .histogram, buckets: subMillisecondsToSeconds,
        recordedAs: PostgresPoolMetrics.waitDurationLabel,
        help: "How long those callers waited for a connection.")

    /// Every metric `GET /metrics` shows, in one place.
    package static let all: [MetricDefinition] = [
        httpRequests, httpRequestDuration, httpRequestsInProgress, messagesAccepted, rateLimitRefusals, apnsPushes,
        apnsAnswerDuration, dispatchDeliveryDuration, startsConfirmed, startsUnconfirmed, startConfirmationDuration,
        deviceStateReports, channelMemberPushesSkipped, contentStateMismatches, priorityLowered, dispatchesWaiting, dispatchesScheduled,
        oldestWaitingDispatch,
        apnsThrottled,
        webhookDeliveries, webhookEventsDelivered, webhookLag,
        databaseConnectionsInUse, databaseConnectionsOpen, databaseWaits, databaseWaitDuration,
    ]

    /// Hummingbird's `MetricsMiddleware` dimensions (OpenTelemetry's names).
    static let httpDimensions = ["http.route": "route", "http.request.method": "method", "http.response.status_code": "status"]

    /// Recorded by a library but not shown: Hummingbird's error counter only counts errors that got past
    /// the gateway's error middleware (none do); statuses are in `livegate_http_requests_total`.
    static let dropped: Set<String> = ["hb.request.errors"]
}
