import APNsClient
import APNsCore
import APNsSimulator
import Foundation
import NIOConcurrencyHelpers
import Testing
import TestSupport

/// Broadcast channels end to end: `APNsChannelManager` and `APNsSender.broadcast` over HTTP/2 and TLS
/// to the simulator, which answers as APNs does.
@Suite("Broadcast channels")
struct BroadcastChannelTests {
    static let bundleID = SimulatorFixture.bundleID
    static let payload = #"{"aps":{"timestamp":1685952000,"event":"update","content-state":{"score":"2-1"}}}"#

    /// A fixture, its destination, a channel manager and sender trusting it, and its control client.
    static func withChannels(
        channelLimit: Int = 10_000, clock: @escaping @Sendable () -> Date = { Date() },
        tokens: ProviderTokenCache = ProviderTokenCache(),
        _ body: (APNsDestination, APNsChannelManager, APNsSender, SimulatorControlClient, APNsSimulator) async throws -> Void
    ) async throws {
        try await SimulatorFixture.with(clock: clock, channelLimit: channelLimit) { fixture in
            let transport = HTTP2ClientConfiguration(trustedCAFile: fixture.certificate.certificateFile)
            let manager = APNsChannelManager(tokens: tokens, transport: transport)
            let sender = APNsSender(tokens: tokens, transport: transport)
            let control = SimulatorControlClient(port: fixture.port, caFile: fixture.certificate.certificateFile)
            let destination = APNsDestination(endpoint: fixture.endpoint, bundleID: bundleID, credentials: fixture.credentials)
            let failure: (any Error)?
            do {
                try await body(destination, manager, sender, control, fixture.simulator)
                failure = nil
            } catch {
                failure = error
            }
            await control.shutdown()
            await manager.shutdown()
            await sender.shutdown()
            if let failure { throw failure }
        }
    }

    static func answer(_ result: ChannelManagementResult) throws -> ChannelManagementResponse {
        guard case .answered(let response) = result else { throw Unanswered(result: "\(result)") }
        return response
    }

    struct Unanswered: Error { let result: String }

    static func create(
        _ policy: MessageStoragePolicy, _ manager: APNsChannelManager, _ destination: APNsDestination
    ) async throws -> ChannelID {
        let created = try answer(await manager.create(ChannelSettings(messageStoragePolicy: policy), for: destination))
        #expect(created.status == 201)
        return try #require(created.channelID)
    }

    @Test func channelsAreCreatedReadListedAndDeleted() async throws {
        try await Self.withChannels { destination, manager, _, _, _ in
            let requestID = UUID()
            let created = try Self.answer(
                await manager.create(
                    ChannelSettings(messageStoragePolicy: .mostRecentMessageStored), for: destination, requestID: requestID))
            #expect(created.status == 201)
            #expect(created.requestID == requestID.uuidString.lowercased(), "APNs echoes apns-request-id")
            let first = try #require(created.channelID)
            #expect(first.isWellFormed)
            let second = try await Self.create(.noMessageStored, manager, destination)
            #expect(second != first, "each create makes a new channel")

            let read = try Self.answer(await manager.read(first, for: destination))
            #expect(read.status == 200)
            #expect(read.settings == ChannelSettings(messageStoragePolicy: .mostRecentMessageStored, pushType: .liveActivity))
            #expect(read.channelID == first)
            #expect(try Self.answer(await manager.read(second, for: destination)).settings?.messageStoragePolicy == .noMessageStored)

            #expect(try Self.answer(await manager.list(for: destination)).channels?.channels == [first, second])

            let deleted = try Self.answer(await manager.delete(first, for: destination))
            #expect(deleted.status == 204)
            #expect(try Self.answer(await manager.list(for: destination)).channels?.channels == [second])
            let gone = try Self.answer(await manager.read(first, for: destination))
            #expect(gone.status == 404)
            #expect(gone.reason == .channelNotRegistered)
            #expect(try Self.answer(await manager.delete(first, for: destination)).reason == .channelNotRegistered)
        }
    }

    @Test func theChannelLimitIsAnsweredAsAPNsDoes() async throws {
        try await Self.withChannels(channelLimit: 2) { destination, manager, _, _, _ in
            let first = try await Self.create(.noMessageStored, manager, destination)
            _ = try await Self.create(.noMessageStored, manager, destination)
            let refused = try Self.answer(
                await manager.create(ChannelSettings(messageStoragePolicy: .noMessageStored), for: destination))
            #expect(refused.status == 400)
            #expect(refused.reason == .cannotCreateChannelConfig)
            #expect(refused.channelID == nil)
            // Another app has channels of its own; deleting one makes room again.
            var other = destination
            other.bundleID = "com.example.other"
            _ = try await Self.create(.noMessageStored, manager, other)
            #expect(try Self.answer(await manager.delete(first, for: destination)).status == 204)
            _ = try await Self.create(.mostRecentMessageStored, manager, destination)
        }
    }

    @Test func badSettingsAndChannelIDsAreRefusedWithAPNsReasons() async throws {
        try await Self.withChannels { destination, manager, _, _, simulator in
            let badPolicy = try Self.answer(
                await manager.create(ChannelSettings(messageStoragePolicy: MessageStoragePolicy(rawValue: 2)), for: destination))
            #expect(badPolicy.status == 400)
            #expect(badPolicy.reason == .badMessageStoragePolicy)
            let badType = try Self.answer(
                await manager.create(
                    ChannelSettings(messageStoragePolicy: .noMessageStored, pushType: ChannelPushType(rawValue: "Alert")),
                    for: destination))
            #expect(badType.reason == .invalidPushType)

            let malformed = try Self.answer(await manager.read(ChannelID(rawValue: "not base64!"), for: destination))
            #expect(malformed.status == 400)
            #expect(malformed.reason == .badChannelId)
            let unknown = try Self.answer(await manager.delete(ChannelID(rawValue: "dW5rbm93bg=="), for: destination))
            #expect(unknown.status == 404)
            #expect(unknown.reason == .channelNotRegistered)
            #expect(simulator.rejections["BadMessageStoragePolicy"] == 1)
        }
    }

    @Test func aMissingChannelIDIsRefused() async throws {
        try await SimulatorFixture.with { fixture in
            let client = CurlHTTP2Client(configuration: .init(trustedCAFile: fixture.certificate.certificateFile))
            let token = try ProviderTokenCache().token(for: fixture.credentials)
            let base = "https://127.0.0.1:\(fixture.port)"
            let authorization: [(name: String, value: String)] = [("authorization", "bearer " + token.value)]
            let read = try await client.send(
                HTTP2Request(url: base + BroadcastPaths.channels(bundleID: Self.bundleID), method: "GET", headers: authorization))
            #expect(read.status == 400)
            #expect(String(decoding: read.body, as: UTF8.self) == #"{"reason":"MissingChannelId"}"#)
            #expect(read.headers["apns-request-id"].flatMap(UUID.init(uuidString:)) != nil, "APNs makes a request id")
            let broadcast = try await client.send(
                HTTP2Request(
                    url: base + BroadcastPaths.broadcast(bundleID: Self.bundleID),
                    headers: authorization + [("apns-push-type", "liveactivity")], body: Array(Self.payload.utf8)))
            #expect(broadcast.status == 400)
            #expect(String(decoding: broadcast.body, as: UTF8.self) == #"{"reason":"MissingChannelId"}"#)
            await client.shutdown()
        }
    }

    @Test func aBroadcastIsRecordedWithItsHeadersAndPayload() async throws {
        try await Self.withChannels { destination, manager, sender, control, simulator in
            let channel = try await Self.create(.mostRecentMessageStored, manager, destination)
            let requestID = UUID()
            let broadcast = LiveActivityBroadcast(
                channelID: channel, payload: Array(Self.payload.utf8), priority: .conservesPower,
                expiresAt: Date(timeIntervalSince1970: 1_685_995_200), requestID: requestID)
            let result = await sender.broadcast(broadcast, to: destination)
            #expect(result == .answered(APNsResponse(status: 200, requestID: requestID.uuidString.lowercased())))

            #expect(simulator.broadcasts.count == 1)
            let listed = try await control.request("GET", "/_sim/broadcasts")
            #expect(listed.status == 200)
            let entries = try #require(try JSONValue.parse(listed.body).arrayValue)
            #expect(entries.count == 1)
            let entry = try #require(entries.first)
            #expect(entry["bundle_id"]?.stringValue == Self.bundleID)
            #expect(entry["channel_id"]?.stringValue == channel.rawValue)
            let sent = try JSONValue.parse(Self.payload)
            #expect(entry["payload"] == sent, "the payload as sent, key order kept")
            let headers = try #require(entry["headers"])
            #expect(headers["apns-channel-id"]?.stringValue == channel.rawValue)
            #expect(headers["apns-push-type"]?.stringValue == "liveactivity")
            #expect(headers["apns-priority"]?.stringValue == "5")
            #expect(headers["apns-expiration"]?.stringValue == "1685995200")
            #expect(headers["apns-request-id"]?.stringValue == requestID.uuidString.lowercased())
            #expect(headers["apns-topic"] == nil, "the bundle id is in the path")
            #expect(headers["authorization"]?.stringValue?.hasSuffix(".(signature omitted)") == true)

            #expect(try await control.request("DELETE", "/_sim/broadcasts").status == 204)
            #expect(simulator.broadcasts.isEmpty)
        }
    }

    @Test func broadcastsToUnknownChannelsAndStoredExpiriesOnPolicyZeroAreRefused() async throws {
        try await Self.withChannels { destination, manager, sender, _, simulator in
            let unknown = await sender.broadcast(
                LiveActivityBroadcast(
                    channelID: ChannelID(rawValue: "dW5rbm93bg=="), payload: Array(Self.payload.utf8), priority: .immediate,
                    expiresAt: nil),
                to: destination)
            guard case .answered(let unknownAnswer) = unknown else { throw Unanswered(result: "\(unknown)") }
            #expect(unknownAnswer.status == 404)
            #expect(unknownAnswer.reason == .channelNotRegistered)

            let channel = try await Self.create(.noMessageStored, manager, destination)
            let stored = await sender.broadcast(
                LiveActivityBroadcast(
                    channelID: channel, payload: Array(Self.payload.utf8), priority: .immediate,
                    expiresAt: Date().addingTimeInterval(3600)),
                to: destination)
            guard case .answered(let storedAnswer) = stored else { throw Unanswered(result: "\(stored)") }
            #expect(storedAnswer.status == 400)
            #expect(storedAnswer.reason == .badExpirationDate)
            let once = await sender.broadcast(
                LiveActivityBroadcast(channelID: channel, payload: Array(Self.payload.utf8), priority: .immediate, expiresAt: nil),
                to: destination)
            guard case .answered(let onceAnswer) = once else { throw Unanswered(result: "\(once)") }
            #expect(onceAnswer.status == 200)
            #expect(simulator.broadcasts.map { $0.headers["apns-expiration"] } == ["0"])

            // A channel APNs forgot (deleted) no longer takes broadcasts.
            #expect(try Self.answer(await manager.delete(channel, for: destination)).status == 204)
            let forgotten = await sender.broadcast(
                LiveActivityBroadcast(channelID: channel, payload: Array(Self.payload.utf8), priority: .immediate, expiresAt: nil),
                to: destination)
            guard case .answered(let forgottenAnswer) = forgotten else { throw Unanswered(result: "\(forgotten)") }
            #expect(forgottenAnswer.reason == .channelNotRegistered)
        }
    }

    /// The simulator's clock runs 70 minutes ahead; the token cache's is moved 40 minutes on after it
    /// signs, so its token is still fresh to it but an hour stale to APNs: APNs answers
    /// `ExpiredProviderToken`, the manager renews once and the request goes through.
    @Test func aRejectedProviderTokenIsRenewedOnceForManagement() async throws {
        let tokenClock = NIOLockedValueBox(Date())
        let tokens = ProviderTokenCache(now: { tokenClock.withLockedValue { $0 } })
        try await Self.withChannels(clock: { Date().addingTimeInterval(70 * 60) }, tokens: tokens) {
            destination, manager, _, _, simulator in
            _ = try tokens.token(for: destination.credentials)
            tokenClock.withLockedValue { $0 = Date().addingTimeInterval(40 * 60) }
            let created = try Self.answer(
                await manager.create(ChannelSettings(messageStoragePolicy: .noMessageStored), for: destination))
            #expect(created.status == 201)
            #expect(simulator.rejections["ExpiredProviderToken"] == 1, "one rejection, one renewal")

            // A key APNs does not know is rejected again after the one renewal: that answer comes back.
            var stranger = destination
            stranger.credentials = APNsCredentials(
                teamID: destination.credentials.teamID, keyID: "UNKNOWNKEY", privateKeyPEM: destination.credentials.privateKeyPEM)
            let refused = try Self.answer(await manager.list(for: stranger))
            #expect(refused.status == 403)
            #expect(refused.reason == .invalidProviderToken)
            #expect(simulator.rejections["InvalidProviderToken"] == 2)
        }
    }

    @Test(arguments: [(400, "BadChannelId"), (404, "ChannelNotRegistered"), (410, "Unregistered"), (500, "InternalServerError")])
    func chosenFaultsComeBackAsAnswers(status: Int, reason: String) async throws {
        try await Self.withChannels { destination, manager, sender, control, _ in
            let channel = try await Self.create(.noMessageStored, manager, destination)
            let set = try await control.request(
                "PUT", "/_sim/apps/\(Self.bundleID)", body: #"{"status":\#(status),"reason":"\#(reason)","times":3}"#)
            #expect(set.status == 200)

            let created = try Self.answer(
                await manager.create(ChannelSettings(messageStoragePolicy: .noMessageStored), for: destination))
            #expect(created.status == status)
            #expect(created.reason == APNsReason(rawValue: reason))
            #expect(try Self.answer(await manager.read(channel, for: destination)).status == status)
            let broadcast = await sender.broadcast(
                LiveActivityBroadcast(channelID: channel, payload: Array(Self.payload.utf8), priority: .immediate, expiresAt: nil),
                to: destination)
            guard case .answered(let answer) = broadcast else { throw Unanswered(result: "\(broadcast)") }
            #expect(answer.status == status)
            #expect(answer.reason == APNsReason(rawValue: reason))
            #expect(answer.requestID != nil)
            // Three times, then APNs's own answers again.
            #expect(try Self.answer(await manager.list(for: destination)).channels?.channels == [channel])
        }
    }

    @Test func theControlAPIListsChannelsAndClearsAppBehaviors() async throws {
        try await Self.withChannels { destination, manager, _, control, _ in
            let channel = try await Self.create(.mostRecentMessageStored, manager, destination)
            let listed = try JSONValue.parse(try await control.request("GET", "/_sim/channels").body)
            #expect(
                listed
                    == .array([
                        .object([
                            "bundle_id": .string(Self.bundleID), "channel_id": .string(channel.rawValue),
                            "message_storage_policy": .integer(1),
                        ])
                    ]))
            #expect(try await control.request("PUT", "/_sim/apps/\(Self.bundleID)", body: #"{"status":500}"#).status == 200)
            #expect(try Self.answer(await manager.list(for: destination)).status == 500)
            #expect(try await control.request("DELETE", "/_sim/apps/\(Self.bundleID)").status == 204)
            #expect(try Self.answer(await manager.list(for: destination)).status == 200)
            #expect(try await control.request("POST", "/_sim/broadcasts").status == 405)
        }
    }

    @Test func managementGoesToApplesManagementHostsOrTheCustomURL() {
        #expect(APNsEndpoint.production.managementBaseURL == "https://api-manage-broadcast.push.apple.com:2196")
        #expect(APNsEndpoint.sandbox.managementBaseURL == "https://api-manage-broadcast.sandbox.push.apple.com:2195")
        let custom = APNsEndpoint(rawValue: "https://127.0.0.1:2197/")!
        #expect(custom.managementBaseURL == "https://127.0.0.1:2197")
        let moved = custom.managed(at: "http://127.0.0.1:9000")
        #expect(moved?.managementBaseURL == "http://127.0.0.1:9000")
        #expect(moved?.baseURL == custom.baseURL)
        #expect(custom.managed(at: "ftp://x") == nil)
    }
}
