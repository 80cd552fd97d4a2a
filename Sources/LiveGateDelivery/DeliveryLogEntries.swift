import APNsClient
import APNsCore
import Foundation
import LiveGateDomain
import UUIDText

/// The activity log entries delivery writes, worded for the person reading the log.
enum DeliveryLogEntries {
    /// The entry for one device's failed push, or nil when there is nothing to report.
    static func entry(
        for result: PushResult, target: FanoutTarget, push: LiveActivityPush, dispatch: Dispatch
    )
        -> ActivityLogEntry?
    {
        var entry = ActivityLogEntry(
            type: .other, message: "", activityID: dispatch.activityID, dispatchID: dispatch.id,
            externalID: target.externalID ?? dispatch.externalID, maskedToken: String(target.token.hex.suffix(8)),
            apnsID: push.apnsID.lowercasedText)
        switch result {
        case .delivered:
            return nil
        case .tokenRemoved(let status, let reason, let since):
            entry.type = .feedbackRemovedToken
            entry.apnsStatus = status
            entry.apnsReason = reason.rawValue
            let when = since.map { " since " + Self.format(milliseconds: $0) } ?? ""
            entry.message =
                status == 410
                ? "APNs says the device token is no longer valid (\(status) \(reason))\(when); the token was removed."
                : "APNs rejected the device token (\(status) \(reason)); the token was removed."
        case .refused(let status, let reason):
            entry.apnsStatus = status
            entry.apnsReason = reason?.rawValue
            entry.message = "APNs refused the push (\(status)\(reason.map { " \($0)" } ?? "")); it is not retried."
        case .gaveUp(let attempts, .answered(429, .tooManyRequests?)):
            entry.apnsStatus = 429
            entry.apnsReason = APNsReason.tooManyRequests.rawValue
            entry.message = throttledGivenUp(attempts: attempts)
        case .gaveUp(let attempts, .answered(let status, let reason)):
            entry.apnsStatus = status
            entry.apnsReason = reason?.rawValue
            entry.message = "APNs did not accept the push after \(attempts) tries (last: \(status)\(reason.map { " \($0)" } ?? ""))."
        case .gaveUp(let attempts, .unreachable(let error)) where error.code == .lostAfterSending:
            entry.message =
                "APNs's answer was lost after \(attempts) tries (last: \(error.code.description): \(error.message)); "
                + "the connection broke after the push went out, so the device may have received it."
        case .gaveUp(let attempts, .unreachable(let error)):
            entry.message = "APNs could not be reached after \(attempts) tries (last: \(error.code.description): \(error.message))."
        case .credentialRejected(let reason):
            entry.type = .invalidPushCredential
            entry.apnsStatus = 403
            entry.apnsReason = reason.rawValue
            entry.message = credentialProblem(rejected: reason, of: "")
        case .credentialUnusable:
            entry.type = .invalidPushCredential
            entry.message = credentialProblem(rejected: nil, of: "")
        }
        return entry
    }

    /// What a credential problem says, for a push (`of` empty) or a broadcast (" for the broadcast").
    private static func credentialProblem(rejected reason: APNsReason?, of what: String) -> String {
        if let reason {
            return "APNs rejected the app's provider token (403 \(reason))\(what), even freshly signed; "
                + "check the team id, key id and .p8 key. Delivery of this message stopped."
        }
        return "The app's APNs key cannot sign provider tokens (it must be a P-256 .p8 key); nothing was sent."
    }

    /// The entry for a broadcast that did not reach its channel, or nil when it did.
    static func broadcast(_ outcome: BroadcastOutcome, channel: ChannelID, dispatch: Dispatch) -> ActivityLogEntry? {
        var entry = ActivityLogEntry(
            type: .other, message: "", activityID: dispatch.activityID, dispatchID: dispatch.id,
            externalID: dispatch.externalID)
        entry.apnsStatus = outcome.status
        entry.apnsReason = outcome.reason?.rawValue
        let answer = outcome.status.map { " (\($0)\(outcome.reason.map { " \($0)" } ?? ""))" } ?? ""
        switch outcome.result {
        case .delivered:
            return nil
        case .channelGone:
            entry.message =
                "APNs no longer knows broadcast channel \(channel)\(answer): it is marked gone and was not "
                + "broadcast to; devices with registered tokens still get the update."
        case .gaveUp(let attempts, .unreachable(let error)):
            entry.message =
                "The broadcast on channel \(channel) could not reach APNs after \(attempts) tries "
                + "(last: \(error.code.description): \(error.message)); devices with registered tokens still get the update."
        case .gaveUp(let attempts, .answered):
            entry.message =
                "APNs did not accept the broadcast on channel \(channel) after \(attempts) tries (last\(answer)); "
                + "devices with registered tokens still get the update."
        case .credentialRejected(let reason):
            entry.type = .invalidPushCredential
            entry.message = credentialProblem(rejected: reason, of: " for the broadcast")
        case .credentialUnusable:
            entry.type = .invalidPushCredential
            entry.message = credentialProblem(rejected: nil, of: " for the broadcast")
        case .refused:
            entry.message =
                "APNs refused the broadcast on channel \(channel)\(answer); it is not retried. Devices with "
                + "registered tokens still get the update."
        }
        return entry
    }

    static func noCredential(_ dispatch: Dispatch, devices: Int) -> ActivityLogEntry {
        ActivityLogEntry(
            type: .noPushCredential,
            message:
                "The app has no APNs push credential (team id, key id and .p8 key), so the message was not sent to \(devices) device\(devices == 1 ? "" : "s").",
            activityID: dispatch.activityID, dispatchID: dispatch.id, externalID: dispatch.externalID)
    }

    static func noTokens(_ dispatch: Dispatch) -> ActivityLogEntry {
        let message: String
        switch (dispatch.event, dispatch.externalID) {
        case (.start, _) where dispatch.audience != nil:
            message =
                "No user matching the audience has a push-to-start token for \(dispatch.audience!.attributesType); nothing was sent."
        case (.start, _):
            message = "None of the named users has a push-to-start token for this activity type; nothing was sent."
        case (_, let externalID?):
            message =
                "No device of user \"\(externalID)\" has registered a push token under activity_id \"\(dispatch.activityID)\" (or its tokens are over 12 hours old); nothing was sent."
        case (_, nil):
            message =
                "No device has registered a push token under activity_id \"\(dispatch.activityID)\" (or its tokens are over 12 hours old); nothing was sent."
        }
        return ActivityLogEntry(
            type: .other, message: message, activityID: dispatch.activityID, dispatchID: dispatch.id,
            externalID: dispatch.externalID)
    }

    /// A start to a segment deleted before its delivery read the segment (when it began, or resumed).
    static func segmentGone(_ dispatch: Dispatch, segmentID: UUID) -> ActivityLogEntry {
        ActivityLogEntry(
            type: .other,
            message:
                "The start's segment \(segmentID.lowercasedText) was deleted before the start was delivered to it; nothing more was sent.",
            activityID: dispatch.activityID, dispatchID: dispatch.id, externalID: nil)
    }

    static func expired(_ dispatch: Dispatch) -> ActivityLogEntry {
        ActivityLogEntry(
            type: .other,
            message:
                "The message expired (apns-expiration \(format(milliseconds: Int64(dispatch.expiresAt.timeIntervalSince1970 * 1000)))) before it could be delivered.",
            activityID: dispatch.activityID, dispatchID: dispatch.id, externalID: dispatch.externalID)
    }

    static func gaveUpOnDispatch(_ dispatch: Dispatch, attempts: Int, problem: PushResult.RetriableProblem?) -> ActivityLogEntry {
        var entry = ActivityLogEntry(
            type: .other, message: "", activityID: dispatch.activityID, dispatchID: dispatch.id,
            externalID: dispatch.externalID)
        let last: String
        switch problem {
        case .answered(let status, let reason)?:
            entry.apnsStatus = status
            entry.apnsReason = reason?.rawValue
            last = "\(status)\(reason.map { " \($0)" } ?? "")"
        case .unreachable(let error)?:
            last = "\(error.code.description): \(error.message)"
        case nil:
            last = "unknown"
        }
        entry.message =
            "Delivery stopped after \(attempts) attempts to reach APNs (last: \(last)); the devices not yet sent to were not sent."
        return entry
    }

    static func format(milliseconds: Int64) -> String {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000).iso8601
    }
}
