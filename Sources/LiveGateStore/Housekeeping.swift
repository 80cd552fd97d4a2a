import LiveGateDomain
import PostgresClient

/// Time-based clean-up of what the API, delivery and rate limiting leave behind. Every statement deletes
/// in bounded batches, so none holds locks for long, and is idempotent, so several gateways may run it
/// at once.
package struct Housekeeping: Sendable {
    /// What one pass deleted.
    package struct Report: Sendable, Equatable {
        package var retiredTokens = 0
        package var logEntries = 0
        package var logHours = 0
        /// Activities' warn-mode payload mismatches (one row per activity and hour).
        package var payloadMismatches = 0
        /// Activities' priority-budget counts (one row per activity and hour).
        package var priorityHours = 0
        /// Events past their retention.
        package var events = 0
        package var dispatches = 0
        package var rateLimitWindows = 0
        package var tokenTagWindows = 0
        package var idempotencyKeys = 0
        package var deviceStates = 0
        package var pushToStartRemovals = 0
        /// Pushed pages that are no device's newest.
        package var pushedPages = 0

        package init() {}
    }

    let pool: PostgresConnectionPool
    let batchSize: Int
    /// Who subscribes to `token.removed`: the tokens retired are written as events only for them.
    let events: (any EventInterest)?

    package init(pool: PostgresConnectionPool, batchSize: Int = 10_000, events: (any EventInterest)? = nil) {
        self.pool = pool
        self.batchSize = batchSize
        self.events = events
    }

    /// Retires update tokens not refreshed within `tokenLifetime` (each a `token.removed` event for who
    /// subscribes); deletes log entries, hourly counts, payload mismatches, priority-budget hours,
    /// finished dispatches and device state reports older than `retention`, push-to-start removals older
    /// than two days, quota windows of past hours and registration windows of past minutes, and
    /// `Idempotency-Key` answers past their 24 hours.
    package func run(
        tokenLifetime: Duration, retention: Duration, eventRetention: Duration = .seconds(7 * 86_400)
    ) async throws -> Report {
        let lifetime = tokenLifetime.inSeconds
        let kept = retention.inSeconds
        var report = Report()
        report.retiredTokens = try await retireStaleTokens(lifetime: lifetime)
        report.logEntries = try await deleteInBatches(
            "message_activity_log", where: "occurred_at < now() - make_interval(secs => $1)", kept)
        // An hour's count goes with the last entry it could belong to.
        report.logHours = try await deleteInBatches(
            "message_activity_log_hours", where: "hour < now() - make_interval(secs => $1) - interval '1 hour'", kept)
        // An activity's payload mismatches, as long as the log entries they stand beside.
        report.payloadMismatches = try await deleteInBatches(
            "activity_payload_mismatches", where: "hour < now() - make_interval(secs => $1) - interval '1 hour'", kept)
        // An activity's priority-budget hours, as long as the log entries that tell of their lowerings.
        report.priorityHours = try await deleteInBatches(
            "activity_priority_hours", where: "hour < now() - make_interval(secs => $1) - interval '1 hour'", kept)
        // Finished dispatches (and, by cascade, a start's targets) are kept as long as the log that names them;
        // superseded and cancelled ones are finished too.
        report.dispatches = try await deleteInBatches("dispatches", where: Self.finishedDispatches, kept)
        // Quota windows are needed for their hour only; an hour's grace covers clocks slightly apart.
        report.rateLimitWindows = try await deleteInBatches(
            "rate_limit_windows", where: "window_start < now() - make_interval(secs => $1)", 2 * 3600)
        report.rateLimitWindows += try await deleteInBatches(
            "users_track_rate_windows", where: "window_start < now() - make_interval(secs => $1)", 2 * 3600)
        // Registration windows are minutes; the same hour of grace.
        report.tokenTagWindows = try await deleteInBatches(
            "token_tag_rate_windows", where: "window_start < now() - make_interval(secs => $1)", 3600)
        report.idempotencyKeys = try await purgeExpiredIdempotencyKeys()
        report.events = try await deleteInBatches(
            "events", where: "occurred_at < now() - make_interval(secs => $1)", eventRetention.inSeconds)
        report.deviceStates = try await deleteInBatches(
            "activity_device_states", where: "received_at < now() - make_interval(secs => $1)", kept)
        // Token health reads the last day of removals; one more day of grace.
        report.pushToStartRemovals = try await deleteInBatches(
            "push_to_start_token_removals", where: "removed_at < now() - make_interval(secs => $1)", 2 * 86_400)
        // Pages that only replaced, retired or otherwise answered tokens kept: pruning on the way skips them.
        report.pushedPages = try await PushedPages(pool: pool).pruneFully()
        return report
    }

    /// Deletes `Idempotency-Key` answers past their 24 hours, so the table holds about a day of keys
    /// however busy the gateway is.
    package func purgeExpiredIdempotencyKeys() async throws -> Int {
        try await deleteInBatches(
            "idempotency_keys", where: "created_at < now() - make_interval(secs => $1)", IdempotencyClaim.retention.inSeconds)
    }

    /// Finished dispatches older than `$1` seconds: the predicate of migration 015's
    /// `dispatches_finished_idx`, which serves it.
    package static let finishedDispatches =
        "status IN ('done', 'failed', 'superseded', 'cancelled') AND completed_at < now() - make_interval(secs => $1)"

    /// One batch of finished dispatches to delete (`$2` at most), as housekeeping selects it.
    package static var finishedDispatchesSelection: String { batchSelection("dispatches", where: finishedDispatches) }

    static func batchSelection(_ table: String, where condition: String) -> String {
        "SELECT ctid FROM \(table) WHERE \(condition) LIMIT $2"
    }

    /// `table` and `condition` are fixed strings of this file, never input; `condition` may use `$1`,
    /// which is `seconds`.
    func deleteInBatches(_ table: String, where condition: String, _ seconds: Double) async throws -> Int {
        var total = 0
        while true {
            let deleted = try await pool.query(
                "DELETE FROM \(table) WHERE ctid IN (\(Self.batchSelection(table, where: condition)))",
                [seconds, batchSize]
            ).affectedRowCount
            total += deleted
            if deleted < batchSize { return total }
        }
    }
}
