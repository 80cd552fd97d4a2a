import APNsCore
import Foundation
import Logging
import NIOConcurrencyHelpers
import UUIDText

/// Broadcast channels as APNs serves them: the management API (create, read, delete, list; at most
/// `maximumChannelsPerApp` per bundle id) and broadcasts to a channel, with APNs's checks, statuses and
/// `{"reason"}` bodies. Every answer carries `apns-request-id`, the request's or a new one.
extension APNsSimulator {
    func answer(_ route: BroadcastRoute, method: String, headers: [String: String], body: [UInt8]) -> Answer {
        let requestID = headers["apns-request-id"] ?? UUID().lowercasedText
        let now = clock()
        let bundleID = route.bundleID
        var answer = state.withLockedValue { state -> Answer in
            func refuse(_ status: Int, _ reason: APNsReason) -> Answer {
                state.rejections[reason.rawValue, default: 0] += 1
                return Answer(status: status, body: Self.reasonBody(reason.rawValue))
            }
            guard route.allowedMethods.contains(method) else { return refuse(405, .methodNotAllowed) }
            if let problem = PushCheck.checkProviderToken(headers["authorization"], keys: configuration.providerKeys, now: now) {
                return refuse(403, APNsReason(rawValue: problem))
            }
            let (failure, delay) = SimulatedBehavior.consume(
                &state.appBehaviors, key: bundleID, rejections: &state.rejections, now: now)
            if let failure { return Answer(status: failure.status, body: failure.body, headers: failure.headers) }
            var answer: Answer
            switch (route, method) {
            case (.allChannels, _):
                let list = ChannelList(channels: state.channels.list(bundleID: bundleID).map(\.id))
                answer = Answer(status: 200, body: list.json.serialized())
            case (.channels, "POST"):
                let settings: ChannelSettings
                do throws(ChannelSettingsError) {
                    settings = try ChannelSettings(json: body)
                } catch {
                    return refuse(400, Self.reason(refusing: error))
                }
                guard settings.pushType == .liveActivity else { return refuse(400, .invalidPushType) }
                guard [MessageStoragePolicy.noMessageStored, .mostRecentMessageStored].contains(settings.messageStoragePolicy) else {
                    return refuse(400, .badMessageStoragePolicy)
                }
                guard state.channels.count(bundleID: bundleID) < configuration.maximumChannelsPerApp else {
                    return refuse(400, .cannotCreateChannelConfig)
                }
                let id = state.channels.create(bundleID: bundleID, policy: settings.messageStoragePolicy)
                logger.info("channel created", metadata: ["bundle_id": "\(bundleID)", "channel_id": "\(id)"])
                answer = Answer(status: 201, body: [], headers: [("apns-channel-id", id.rawValue)])
            case (.channels, _):
                guard let text = headers["apns-channel-id"] else { return refuse(400, .missingChannelId) }
                let id = ChannelID(rawValue: text)
                guard id.isWellFormed else { return refuse(400, .badChannelId) }
                guard let channel = state.channels.channel(id, bundleID: bundleID) else {
                    return refuse(404, .channelNotRegistered)
                }
                if method == "DELETE" {
                    _ = state.channels.delete(id, bundleID: bundleID)
                    logger.info("channel deleted", metadata: ["bundle_id": "\(bundleID)", "channel_id": "\(id)"])
                    answer = Answer(status: 204, body: [])
                } else {
                    answer = Answer(
                        status: 200, body: ChannelSettings(messageStoragePolicy: channel.policy).json.serialized(),
                        headers: [("apns-channel-id", id.rawValue)])
                }
            case (.broadcast, _):
                if let refusal = Self.checkBroadcast(headers: headers, body: body, bundleID: bundleID, channels: state.channels) {
                    return refuse(refusal.status, refusal.reason)
                }
                let id = ChannelID(rawValue: headers["apns-channel-id"] ?? "")
                state.broadcasts.append(
                    SimulatedBroadcast(bundleID: bundleID, channelID: id, headers: headers, payload: body, receivedAt: now))
                logger.info("broadcast accepted", metadata: ["channel_id": "\(id)", "bytes": "\(body.count)"])
                answer = Answer(status: 200, body: [])
            }
            answer.delay = delay
            return answer
        }
        answer.headers.insert(("apns-request-id", requestID), at: 0)
        return answer
    }

    /// APNs's checks of a broadcast after the provider token, in order; nil when it is accepted.
    private static func checkBroadcast(
        headers: [String: String], body: [UInt8], bundleID: String, channels: SimulatedChannels
    ) -> (status: Int, reason: APNsReason)? {
        guard let pushType = headers["apns-push-type"] else { return (400, .missingPushType) }
        guard pushType == "liveactivity" else { return (400, .invalidPushType) }
        guard let text = headers["apns-channel-id"] else { return (400, .missingChannelId) }
        let id = ChannelID(rawValue: text)
        guard id.isWellFormed else { return (400, .badChannelId) }
        // Broadcasts also take priority 1 (low), which device pushes do not.
        if let priority = headers["apns-priority"], !["1", "5", "10"].contains(priority) { return (400, .badPriority) }
        let expiration = headers["apns-expiration"].flatMap { Int64($0) }
        if headers["apns-expiration"] != nil, expiration == nil { return (400, .badExpirationDate) }
        guard let channel = channels.channel(id, bundleID: bundleID) else { return (404, .channelNotRegistered) }
        // A channel that stores nothing cannot hold a broadcast until it expires.
        if channel.policy == .noMessageStored, let expiration, expiration != 0 { return (400, .badExpirationDate) }
        if let problem = PushCheck.checkPayload(body) { return (problem.status, APNsReason(rawValue: problem.reason)) }
        return nil
    }

    /// What APNs answers to a create request whose body is not channel settings.
    private static func reason(refusing error: ChannelSettingsError) -> APNsReason {
        switch error.code {
        case .missingPushType: .missingPushType
        case .badPushType: .invalidPushType
        default: .badMessageStoragePolicy
        }
    }

    /// Every broadcast answered 200, in arrival order.
    package var broadcasts: [SimulatedBroadcast] { state.withLockedValue { $0.broadcasts } }

    /// Forgets the broadcasts received so far.
    package func clearBroadcasts() {
        state.withLockedValue { $0.broadcasts.removeAll() }
    }

    /// How channel management and broadcast requests for `bundleID` are answered once they pass the
    /// provider token check; nil restores APNs's own answers.
    package func setBehavior(_ behavior: SimulatedBehavior?, forApp bundleID: String) {
        state.withLockedValue { $0.appBehaviors[bundleID] = behavior }
    }

    /// Every app's channels as `GET /_sim/channels` lists them, oldest first.
    var channelsJSON: JSONValue {
        .array(
            state.withLockedValue { $0.channels.all }.map { channel in
                .object([
                    "bundle_id": .string(channel.bundleID),
                    "channel_id": .string(channel.id.rawValue),
                    "message_storage_policy": .integer(channel.policy.rawValue),
                ])
            })
    }
}
