import APNsCore
import CivilTime
import Foundation
import LiveGateDomain
import UUIDText

/// The JSON of a log page: `{"entries": [...], "message": "success", "next_cursor": ..., "suppressed": [...]}`.
/// Absent values are `null`, so every entry has the same keys.
enum ActivityLogJSON {
    static func body(of page: ActivityLogPage) -> [UInt8] {
        var body = JSONObject()
        body.set("entries", .array(page.entries.map(entry)))
        body.set("message", .string("success"))
        body.set("next_cursor", page.nextCursor.map { .string($0.token) } ?? .null)
        body.set("suppressed", .array(page.suppressedHours.map(suppressed)))
        return JSONValue.object(body).serialized()
    }

    static func entry(_ stored: ActivityLogPage.Entry) -> JSONValue {
        let entry = stored.entry
        var object = JSONObject()
        object.set("id", .string(String(stored.id)))
        object.set("time", .string(time(microseconds: stored.occurredAtMicroseconds)))
        object.set("app_id", optional(stored.appIdentifier))
        object.set("type", .string(entry.type.rawValue))
        object.set("message", .string(entry.message))
        object.set("activity_id", optional(entry.activityID))
        object.set("dispatch_id", optional(entry.dispatchID?.lowercasedText))
        object.set("external_id", optional(entry.externalID))
        object.set("token", optional(entry.maskedToken.map { "…" + $0 }))
        object.set("apns_status", entry.apnsStatus.map { .number(String($0)) } ?? .null)
        object.set("apns_reason", optional(entry.apnsReason))
        object.set("apns_id", optional(entry.apnsID))
        object.set("details", entry.details.map(JSONValue.object) ?? .null)
        return .object(object)
    }

    static func suppressed(_ hour: ActivityLogPage.SuppressedHour) -> JSONValue {
        var object = JSONObject()
        object.set("app_id", optional(hour.appIdentifier))
        object.set("type", .string(hour.type.rawValue))
        object.set("hour", .string(time(microseconds: Int64(hour.hour.timeIntervalSince1970) * 1_000_000)))
        object.set("total", .number(String(hour.total)))
        object.set("stored", .number(String(hour.stored)))
        object.set("suppressed", .number(String(hour.suppressed)))
        return .object(object)
    }

    static func optional(_ text: String?) -> JSONValue {
        text.map(JSONValue.string) ?? .null
    }

    /// `2026-11-22T15:07:19.123456Z`: UTC, microseconds, as stored.
    static func time(microseconds: Int64) -> String {
        UTCTimestamp.iso8601(microseconds, unitsPerSecond: 1_000_000)
    }
}
