import APNsCore
import Foundation
import LiveGateDomain
import UUIDText

/// The JSON of an activity resource. Absent values are `null`, so every body has the same keys; times
/// are UTC with milliseconds, as a dispatch's.
enum ActivityJSON {
    static func object(_ view: ActivityView, appIdentifier: String) -> JSONObject {
        var object = JSONObject()
        object.set("message", .string("success"))
        object.set("app_id", .string(appIdentifier))
        object.set("activity_id", .string(view.activityID))
        object.set("counts", .object(counts(view.counts)))
        object.set("channel", view.channel.map { .object(channel($0)) } ?? .null)
        object.set("devices", .array(view.devices.map { .object(device($0)) }))
        object.set("next_cursor", view.nextCursor.map { .string($0.token) } ?? .null)
        object.set("dispatches", .array(view.dispatches.map { .object(dispatch($0)) }))
        object.set("attributes_types", .array(view.attributesTypes.map(JSONValue.string)))
        object.set("payload_mismatches", .array(view.mismatches.map { .object(mismatch($0)) }))
        object.set("priority_budget", view.priorityBudget.map { .object(priorityBudget($0)) } ?? .null)
        object.set("priority_hours", .array(view.priorityHours.map { .object(priorityHour($0)) }))
        return object
    }

    static func priorityBudget(_ budget: PriorityBudget) -> JSONObject {
        var object = JSONObject()
        object.set("per_hour", .number(String(budget.perHour)))
        object.set("frequent_per_hour", budget.frequentPerHour.map { .number(String($0)) } ?? .null)
        return object
    }

    static func priorityHour(_ hour: ActivityPriorityHour) -> JSONObject {
        var object = JSONObject()
        object.set("hour", .string(DispatchJSON.time(hour.hour)))
        object.set("priority_10", .number(String(hour.sentAtPriority10)))
        object.set("lowered", .number(String(hour.lowered)))
        object.set("throttled", .number(String(hour.throttled)))
        return object
    }

    static func mismatch(_ record: PayloadMismatchRecord) -> JSONObject {
        var object = JSONObject()
        object.set("hour", .string(DispatchJSON.time(record.hour)))
        object.set("message", .string(record.message))
        object.set("dispatch_id", record.dispatchID.map { .string($0.lowercasedText) } ?? .null)
        return object
    }

    /// As the dispatch resource shows it, with a link to that resource.
    static func dispatch(_ record: DispatchRecord) -> JSONObject {
        var object = DispatchJSON.object(record)
        object.set("href", .string("/messages/live_activity/dispatches/\(record.id.lowercasedText)"))
        return object
    }

    static func counts(_ counts: ActivityDeviceCounts) -> JSONObject {
        var object = JSONObject()
        object.set("devices", .integer(counts.devices))
        object.set("with_token", .integer(counts.withToken))
        for state in ActivityDeviceState.allCases { object.set(state.rawValue, .integer(counts.byState[state] ?? 0)) }
        object.set("unreported", .integer(counts.unreported))
        object.set("channel_members", .integer(counts.channelMembers))
        return object
    }

    static func channel(_ channel: ActivityChannel) -> JSONObject {
        var object = JSONObject()
        object.set("channel_id", .string(channel.id.rawValue))
        object.set("state", .string(channel.state))
        return object
    }

    static func device(_ device: ActivityDevice) -> JSONObject {
        var object = JSONObject()
        object.set("device_id", .string(device.deviceID))
        object.set("external_id", device.externalID.map(JSONValue.string) ?? .null)
        object.set("token", device.maskedToken.map(JSONValue.string) ?? .null)
        object.set("registered_at", time(device.registeredAt))
        object.set("rotated_at", time(device.rotatedAt))
        if let push = device.lastPush {
            var last = JSONObject()
            last.set("dispatch_id", .string(push.dispatchID.lowercasedText))
            last.set("apns_status", .integer(push.apnsStatus))
            last.set("at", .string(DispatchJSON.time(push.at)))
            object.set("last_push", .object(last))
        } else {
            object.set("last_push", .null)
        }
        object.set("state", device.state.map { .string($0.rawValue) } ?? .null)
        object.set("state_reported_at", time(device.stateReportedAt))
        object.set("channel_id", device.channelID.map(JSONValue.string) ?? .null)
        object.set("channel_member", .bool(device.channelMember))
        object.set("frequent_pushes_enabled", device.frequentPushesEnabled.map(JSONValue.bool) ?? .null)
        return object
    }

    private static func time(_ date: Date?) -> JSONValue {
        date.map { .string(DispatchJSON.time($0)) } ?? .null
    }
}
