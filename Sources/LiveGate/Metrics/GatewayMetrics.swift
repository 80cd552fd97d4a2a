import APNsClient
import PostgresClient

/// Every metric `GET /metrics` shows, in one place (docs/operating/metrics.md explains them). The
/// gateway records its own through swift-metrics (`GatewayMetrics+Recording`); Hummingbird, the
/// PostgreSQL pool and the APNs sender record theirs under their own labels, which
/// `GatewayMetricsFactory` renames to these. Label values are bounded sets (route templates, methods,
/// statuses, events): never a workspace, app, activity, token or key.
package enum GatewayMetrics {
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
    package static let messagesAccepted = MetricDefinition(
        "livegate_messages_accepted_total", .counter, labels: ["event"],
        help: "Live Activity messages accepted (committed, answered 201), by APNs event; replays not counted.")
    package static let rateLimitRefusals = MetricDefinition(
        "livegate_rate_limit_refusals_total", .counter, labels: ["route"],
        help: "Requests refused with 429 because their workspace used up its hourly limit.")
    package static let apnsPushes = MetricDefinition(
        "livegate_apns_pushes_total", .counter, labels: ["kind", "status"], recordedAs: APNsMetrics.requestsLabel,
        help: "Pushes sent to APNs (every try), by kind (device, broadcast) and the HTTP status APNs answered (none: no answer).")
    package static let apnsAnswerDuration = MetricDefinition(
        "livegate_apns_answer_duration_seconds", .histogram, labels: ["kind"], buckets: millisecondsToSeconds,
        recordedAs: APNsMetrics.answerDurationLabel,
        help: "Time APNs took to answer a push, from sending the request to the answer's last byte.")
    package static let dispatchDeliveryDuration = MetricDefinition(
        "livegate_dispatch_delivery_duration_seconds", .histogram, labels: ["event"], buckets: tensOfMillisecondsToMinutes,
        help: "Per dispatch delivered to all its devices: time from acceptance (or its send_at, if later) to the last device's push.")
    package static let startsConfirmed = MetricDefinition(
        "livegate_starts_confirmed_total", .counter,
        help: "Push-to-start devices that confirmed the start: the started activity's update token arrived, or it reported itself shown.")
    package static let startsUnconfirmed = MetricDefinition(
        "livegate_starts_unconfirmed_total", .counter,
        help:
            "Push-to-start devices APNs took the push for that had not confirmed it LIVEGATE_START_CONFIRM_SECONDS after the start finished."
    )
    package static let startConfirmationDuration = MetricDefinition(
        "livegate_start_confirmation_duration_seconds", .histogram, buckets: tenthsOfSecondsToMinutes,
        help: "Per confirmed push-to-start device: time from APNs's answer to the confirmation.")
    package static let deviceStateReports = MetricDefinition(
        "livegate_device_state_reports_total", .counter, labels: ["state"],
        help: "Activity states the SDK reported (POST /live_activity/device_state), by state; older reports that changed nothing included.")
    package static let channelMemberPushesSkipped = MetricDefinition(
        "livegate_channel_member_pushes_skipped_total", .counter,
        help: "Token pushes not sent because the device follows the activity's broadcast channel, which the update reached.")
    package static let dispatchesWaiting = MetricDefinition(
        "livegate_dispatches_waiting", .gauge, labels: ["state"],
        help: "Due dispatches not finished: pending (waiting for a worker) or delivering (held by one). All gateways' together.")
    package static let dispatchesScheduled = MetricDefinition(
        "livegate_dispatches_scheduled", .gauge,
        help: "Accepted dispatches not due yet: send_at ahead, or handed back to be tried again later.")
    package static let oldestWaitingDispatch = MetricDefinition(
        "livegate_dispatch_oldest_waiting_seconds", .gauge,
        help: "How long the longest-waiting unfinished due dispatch has been due (0: none).")
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

    package static let all: [MetricDefinition] = [
        httpRequests, httpRequestDuration, httpRequestsInProgress, messagesAccepted, rateLimitRefusals, apnsPushes,
        apnsAnswerDuration, dispatchDeliveryDuration, startsConfirmed, startsUnconfirmed, startConfirmationDuration,
        deviceStateReports, channelMemberPushesSkipped, dispatchesWaiting, dispatchesScheduled, oldestWaitingDispatch,
        databaseConnectionsInUse, databaseConnectionsOpen, databaseWaits, databaseWaitDuration,
    ]

    /// Hummingbird's `MetricsMiddleware` dimensions (OpenTelemetry's names).
    static let httpDimensions = ["http.route": "route", "http.request.method": "method", "http.response.status_code": "status"]

    /// Recorded by a library but not shown: Hummingbird's error counter only counts errors that got past
    /// the gateway's error middleware (none do); statuses are in `livegate_http_requests_total`.
    static let dropped: Set<String> = ["hb.request.errors"]

    /// HTTP answers and APNs answers: 1 ms to 10 s.
    static let millisecondsToSeconds: [Duration] = [
        .milliseconds(1), .microseconds(2500), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
        .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5),
        .seconds(10),
    ]
    /// Waiting for a database connection: 0.1 ms to 10 s.
    static let subMillisecondsToSeconds: [Duration] = [.microseconds(100), .microseconds(500)] + millisecondsToSeconds
    /// A start's confirmation: 100 ms to 30 minutes.
    static let tenthsOfSecondsToMinutes: [Duration] = [
        .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5),
        .seconds(10), .seconds(30), .seconds(60), .seconds(120), .seconds(300), .seconds(600), .seconds(1800),
    ]
    /// A dispatch's whole fan-out: 10 ms to 10 minutes.
    static let tensOfMillisecondsToMinutes: [Duration] = [
        .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250),
        .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10), .seconds(30), .seconds(60),
        .seconds(120), .seconds(300), .seconds(600),
    ]
}
