import APNsCore
import CivilTime
import Foundation
import LiveGateDomain
import UUIDText

/// The JSON of a dispatch resource. Absent values are `null`, so every body has the same keys; times
/// are UTC with milliseconds.
enum DispatchJSON {
    static func object(_ record: DispatchRecord) -> JSONObject {
        var object = JSONObject()
        object.set("dispatch_id", .string(record.id.lowercasedText))
        object.set("app_id", record.appIdentifier.map(JSONValue.string) ?? .null)
        object.set("activity_id", .string(record.activityID))
        object.set("event", .string(record.event.rawValue))
        object.set("external_id", record.externalID.map(JSONValue.string) ?? .null)
        object.set("status", .string(record.state.rawValue))
        object.set("accepted_at", .string(time(record.acceptedAt)))
        object.set("send_at", record.sendAt.map { .string(time($0)) } ?? .null)
        object.set("completed_at", record.completedAt.map { .string(time($0)) } ?? .null)
        object.set("superseded_by", record.supersededBy.map { .string($0.lowercasedText) } ?? .null)
        var devices = JSONObject()
        devices.set("sent", .integer(record.devices.sent))
        devices.set("failed", .integer(record.devices.failed))
        devices.set("retried", .integer(record.devices.retried))
        devices.set("removed", .integer(record.devices.removed))
        object.set("devices", .object(devices))
        object.set("confirmation", record.confirmation.map { .object(confirmation($0)) } ?? .null)
        object.set("audience", record.audience.map { .object(audience($0)) } ?? .null)
        return object
    }

    /// A start to an audience: the type whose push-to-start tokens it uses, and who it is for.
    static func audience(_ audience: DispatchAudience) -> JSONObject {
        var object = JSONObject()
        object.set("activity_attributes_type", .string(audience.attributesType))
        object.set("custom_audience", audience.customAudience ?? .null)
        object.set("segment_id", audience.segmentID.map { .string($0.lowercasedText) } ?? .null)
        return object
    }

    static func confirmation(_ figures: StartConfirmationFigures) -> JSONObject {
        var object = JSONObject()
        object.set("sent", .integer(figures.sent))
        object.set("confirmed", .integer(figures.confirmed))
        object.set("unconfirmed", .integer(figures.unconfirmed))
        // Milliseconds are all a person reads here.
        object.set(
            "median_seconds_to_confirm", figures.medianSecondsToConfirm.map { .number(String(format: "%.3f", max(0, $0))) } ?? .null)
        return object
    }

    /// `2026-11-23T18:30:00.250Z`.
    static func time(_ date: Date) -> String {
        UTCTimestamp.iso8601(Int64((date.timeIntervalSince1970 * 1_000).rounded()), unitsPerSecond: 1_000)
    }
}
