import APNsCore
import CivilTime
import Foundation
import UUIDText

/// The activity log entries of a webhook endpoint's pause and resumption. Their details name the
/// endpoint by id and by its URL's host only: a URL's path, query or user part may carry a receiver's
/// own credentials, and the endpoint's secret is never read for them.
package enum WebhookLogEntries {
    /// It failed for the whole retry period and was paused.
    package static func paused(
        webhookID: UUID, url: String, failures: Int, failingSince: Date, lastError: String?
    ) -> ActivityLogEntry {
        let host = host(of: url)
        var details = JSONObject()
        details.set("webhook_id", .string(webhookID.lowercasedText))
        details.set("url_host", .string(host))
        details.set("failures", .number(String(failures)))
        details.set("failing_since", .string(time(failingSince)))
        details.set("last_error", lastError.map(JSONValue.string) ?? .null)
        let last = lastError.map { " (last: \($0))" } ?? ""
        return ActivityLogEntry(
            type: .webhookPaused,
            message: "Webhook endpoint \(webhookID.lowercasedText) to \(host) paused: \(failures) batches in a row failed since "
                + "\(time(failingSince))\(last). Nothing is sent to it until it is resumed; its events wait for it.",
            details: details)
    }

    /// A paused endpoint was resumed; `failures` and `lastError` are what it had when it was paused.
    package static func resumed(
        webhookID: UUID, url: String, pausedAt: Date, failures: Int, lastError: String?, keyID: UUID?, keyName: String?
    ) -> ActivityLogEntry {
        let host = host(of: url)
        var details = JSONObject()
        details.set("webhook_id", .string(webhookID.lowercasedText))
        details.set("url_host", .string(host))
        details.set("paused_at", .string(time(pausedAt)))
        details.set("failures", .number(String(failures)))
        details.set("last_error", lastError.map(JSONValue.string) ?? .null)
        details.set("api_key_id", keyID.map { .string($0.lowercasedText) } ?? .null)
        let by = keyName.map { " with the API key '\($0)'" } ?? ""
        return ActivityLogEntry(
            type: .webhookResumed,
            message: "Webhook endpoint \(webhookID.lowercasedText) to \(host) resumed\(by): paused since \(time(pausedAt)) after "
                + "\(failures) failed batches in a row, it is sent its waiting events again, from the first not delivered.",
            details: details)
    }

    /// The URL's host, without its user part, port, path or query; the whole URL is never logged.
    package static func host(of url: String) -> String {
        URLComponents(string: url)?.host ?? "(no host)"
    }

    static func time(_ date: Date) -> String {
        UTCTimestamp.iso8601(Int64((date.timeIntervalSince1970 * 1_000).rounded()), unitsPerSecond: 1_000)
    }
}
