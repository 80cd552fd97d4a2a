/// The metrics the gateway records itself, through swift-metrics (`GatewayMetrics+Recording`);
/// docs/operating/metrics.md explains them. Those that Hummingbird, the PostgreSQL pool and the APNs
/// sender record under their own labels are defined where the app renames them
/// (`GatewayMetrics+Libraries`). Label values are bounded sets (route templates, methods, statuses,
/// events): never a workspace, app, activity, token or key.
package enum GatewayMetrics {
    package static let messagesAccepted = MetricDefinition(
        "livegate_messages_accepted_total", .counter, labels: ["event"],
        help: "Live Activity messages accepted (committed, answered 201), by APNs event; replays not counted.")
    package static let rateLimitRefusals = MetricDefinition(
        "livegate_rate_limit_refusals_total", .counter, labels: ["route"],
        help: "Requests refused with 429 because their workspace used up its hourly limit.")
    package static let apnsThrottled = MetricDefinition(
        "livegate_apns_throttled_total", .counter, labels: ["target"],
        help:
            "APNs's 429 TooManyRequests answers (one device, or one broadcast channel, got too many pushes), by target: device or channel. Only that target is backed off."
    )
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
    package static let contentStateMismatches = MetricDefinition(
        "livegate_content_state_mismatches_total", .counter, labels: ["event"],
        help: "Messages accepted although their activity's type, in warn mode, would not decode them: the phone shows nothing for them.")
    package static let priorityLowered = MetricDefinition(
        "livegate_priority_lowered_total", .counter,
        help: "Pushes sent at priority 5 instead of 10 because their activity had used its app's hourly priority budget.")
    package static let dispatchesWaiting = MetricDefinition(
        "livegate_dispatches_waiting", .gauge, labels: ["state"],
        help: "Due dispatches not finished: pending (waiting for a worker) or delivering (held by one). All gateways' together.")
    package static let dispatchesScheduled = MetricDefinition(
        "livegate_dispatches_scheduled", .gauge,
        help: "Accepted dispatches not due yet: send_at ahead, or handed back to be tried again later.")
    package static let oldestWaitingDispatch = MetricDefinition(
        "livegate_dispatch_oldest_waiting_seconds", .gauge,
        help: "How long the longest-waiting unfinished due dispatch has been due (0: none).")

    /// HTTP answers and APNs answers: 1 ms to 10 s.
    package static let millisecondsToSeconds: [Duration] = [
        .milliseconds(1), .microseconds(2500), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
        .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5),
        .seconds(10),
    ]
    /// Waiting for a database connection: 0.1 ms to 10 s.
    package static let subMillisecondsToSeconds: [Duration] = [.microseconds(100), .microseconds(500)] + millisecondsToSeconds
    /// A start's confirmation: 100 ms to 30 minutes.
    package static let tenthsOfSecondsToMinutes: [Duration] = [
        .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5),
        .seconds(10), .seconds(30), .seconds(60), .seconds(120), .seconds(300), .seconds(600), .seconds(1800),
    ]
    /// A dispatch's whole fan-out: 10 ms to 10 minutes.
    package static let tensOfMillisecondsToMinutes: [Duration] = [
        .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250),
        .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10), .seconds(30), .seconds(60),
        .seconds(120), .seconds(300), .seconds(600),
    ]
}
