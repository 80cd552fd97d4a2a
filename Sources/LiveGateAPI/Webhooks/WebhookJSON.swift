import APNsCore
import Foundation
import LiveGateDomain
import UUIDText

/// One endpoint as `GET /webhooks` shows it: never its secret.
enum WebhookJSON {
    static func object(_ endpoint: WebhookEndpoint) -> JSONObject {
        var object = JSONObject()
        object.set("webhook_id", .string(endpoint.id.lowercasedText))
        object.set("url", .string(endpoint.url))
        object.set("events", .array(endpoint.eventTypes.map { .string($0.rawValue) }))
        object.set("app_id", endpoint.appIdentifier.map(JSONValue.string) ?? .null)
        object.set("created_at", .string(DispatchJSON.time(endpoint.createdAt)))
        object.set("paused", .bool(endpoint.pausedAt != nil))
        object.set("paused_at", endpoint.pausedAt.map { .string(DispatchJSON.time($0)) } ?? .null)
        object.set("failures", .number(String(endpoint.failures)))
        object.set("failing_since", endpoint.failingSince.map { .string(DispatchJSON.time($0)) } ?? .null)
        object.set("last_error", endpoint.lastError.map(JSONValue.string) ?? .null)
        object.set("retry_at", endpoint.retryAt.map { .string(DispatchJSON.time($0)) } ?? .null)
        object.set("last_delivered_at", endpoint.lastDeliveredAt.map { .string(DispatchJSON.time($0)) } ?? .null)
        object.set("delivered_events", .number(String(endpoint.deliveredEvents)))
        let (seconds, attoseconds) = endpoint.lag.components
        object.set("lag_seconds", .number(String(format: "%.3f", Double(seconds) + Double(attoseconds) / 1e18)))
        return object
    }
}
