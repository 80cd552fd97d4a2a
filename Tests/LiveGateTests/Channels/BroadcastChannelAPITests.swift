import APNsClient
import APNsCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import TestSupport
import Testing

@Suite("Channel routes", .requiresPostgres)
struct BroadcastChannelAPITests {
    @Test func createThenCreateAgainAnswersTheSameChannel() async throws {
        try await ChannelHarness.with { harness in
            try await harness.api { client in
                let first = try await harness.create("game-42", policy: 0, client)
                #expect(first.status == .created, "\(first.text)")
                let channelID = try #require(try first.json["channel_id"]?.stringValue)
                try expectJSON(first.json, equals: #"{"message":"success","channel_id":"\#(channelID)","activity_id":"game-42"}"#)
                let again = try await harness.create("game-42", client)
                #expect(again.status == .ok)
                try expectJSON(again.json, equals: #"{"message":"success","channel_id":"\#(channelID)","activity_id":"game-42"}"#)
                let atAPNs = try await harness.simulatorChannels()
                #expect(atAPNs.map(\.id) == [channelID])
                #expect(atAPNs.map(\.policy) == [0])
                #expect(try await harness.rows()["game-42"]?.state == "live")
            }
        }
    }

    @Test func twoConcurrentCreatesMakeOneChannel() async throws {
        try await ChannelHarness.with { harness in
            try await harness.api { client in
                let answers = try await withThrowingTaskGroup(of: (HTTPResponse.Status, String?).self) { group in
                    for _ in 0..<4 {
                        group.addTask {
                            let response = try await harness.create("final", client)
                            return (response.status, try response.json["channel_id"]?.stringValue)
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(answers.filter { $0.0 == .created }.count == 1, "\(answers)")
                #expect(answers.filter { $0.0 == .ok }.count == 3, "\(answers)")
                #expect(Set(answers.map(\.1)).count == 1)
                #expect(try await harness.simulatorChannels().count == 1)
            }
        }
    }

    /// Two gateways (two routers, each with its own channel manager) asked at once for one activity.
    @Test func twoGatewaysAskedAtOnceMakeOneChannel() async throws {
        try await ChannelHarness.with { harness in
            try await harness.api { first in
                try await harness.api(manager: harness.secondManager) { second in
                    async let one = harness.create("derby", first)
                    async let two = harness.create("derby", second)
                    let answers = try await [one, two]
                    #expect(Set(answers.map(\.status)) == [.created, .ok], "\(answers.map(\.text))")
                    #expect(Set(try answers.map { try $0.json["channel_id"]?.stringValue }).count == 1)
                    #expect(try await harness.simulatorChannels().count == 1)
                }
            }
        }
    }

    @Test func listPagesInCreationOrder() async throws {
        try await ChannelHarness.with { harness in
            try await harness.api { client in
                for index in 0..<3 {
                    #expect(try await harness.create("game-\(index)", policy: index % 2, client).status == .created)
                }
                let app = harness.tenant.app.identifier
                let first = try await client.execute(
                    uri: "/live_activity/channels?app_id=\(app)&limit=2", method: .get, headers: .bearer(harness.tenant.secret))
                #expect(first.status == .ok, "\(first.text)")
                let firstPage = try first.json
                let entries = firstPage["channels"]?.arrayValue ?? []
                #expect(entries.map { $0["activity_id"]?.stringValue } == ["game-0", "game-1"])
                #expect(entries.map { $0["message_storage_policy"]?.numberLexeme } == ["0", "1"])
                #expect(
                    entries.allSatisfy { $0["created_at"]?.stringValue?.hasSuffix("Z") == true && $0["channel_id"]?.stringValue != nil })
                let cursor = try #require(firstPage["next_cursor"]?.stringValue)
                let second = try await client.execute(
                    uri: "/live_activity/channels?app_id=\(app)&limit=2&cursor=\(cursor)", method: .get,
                    headers: .bearer(harness.tenant.secret))
                let secondPage = try second.json
                #expect((secondPage["channels"]?.arrayValue ?? []).map { $0["activity_id"]?.stringValue } == ["game-2"])
                #expect(secondPage["next_cursor"]?.isNull == true)
                let bad = try await client.execute(
                    uri: "/live_activity/channels?limit=0", method: .get, headers: .bearer(harness.tenant.secret))
                #expect(bad.status == .badRequest)
                #expect(bad.errors == ["app_id is required", "limit must be a whole number from 1 to 100"])
            }
        }
    }

    @Test func deleteRemovesTheChannelAtAPNsAndLocally() async throws {
        try await ChannelHarness.with { harness in
            try await harness.api { client in
                let channelID = try await harness.create("game-42", client).json["channel_id"]?.stringValue
                let kept = try await harness.create("game-43", client).json["channel_id"]?.stringValue
                let deleted = try await harness.delete("game-42", client)
                #expect(deleted.status == .ok, "\(deleted.text)")
                try expectJSON(deleted.json, equals: #"{"message":"success","channel_id":"\#(channelID!)","activity_id":"game-42"}"#)
                #expect(try await harness.simulatorChannels().map(\.id) == [kept!])
                #expect(try await harness.rows()["game-42"] == nil)
                let again = try await harness.delete("game-42", client)
                #expect(again.status == .notFound)
            }
        }
    }

    @Test func aChannelAPNsForgotIsDeletedLocally() async throws {
        try await ChannelHarness.with { harness in
            try await harness.api { client in
                let channelID = try #require(try await harness.create("game-42", client).json["channel_id"]?.stringValue)
                // APNs forgets it: deleted behind the gateway's back.
                _ = await harness.manager.delete(
                    ChannelID(rawValue: channelID),
                    for: try #require(harness.tenant.app.channelDestination))
                let deleted = try await harness.delete("game-42", client)
                #expect(deleted.status == .ok, "\(deleted.text)")
                #expect(try await harness.rows().isEmpty)
            }
        }
    }

    @Test func theLimitIsRefusedWithoutCallingAPNs() async throws {
        try await ChannelHarness.with(limits: ChannelLimits(channelsPerApp: 2)) { harness in
            try await harness.api { client in
                #expect(try await harness.create("a", client).status == .created)
                #expect(try await harness.create("b", client).status == .created)
                let refused = try await harness.create("c", client)
                #expect(refused.status == .badRequest)
                try expectJSON(
                    refused.json,
                    equals:
                        #"{"message":"Invalid request: channel limit reached","errors":["app '\#(harness.tenant.app.identifier)' already has 2 broadcast channels, the most it may have: delete one first"]}"#
                )
                #expect(try await harness.simulatorChannels().count == 2)
                #expect(try await harness.rows()["c"] == nil)
                // An existing activity is still answered at the limit.
                #expect(try await harness.create("a", client).status == .ok)
            }
        }
    }

    @Test(arguments: [(400, "BadRequest"), (404, "ChannelNotRegistered"), (410, "Unregistered"), (500, "InternalServerError")])
    func apnsRefusingACreateIsA502AndALogEntry(status: Int, reason: String) async throws {
        try await ChannelHarness.with { harness in
            try await harness.fault(status, reason)
            try await harness.api { client in
                let refused = try await harness.create("game-42", client)
                #expect(refused.status == .badGateway)
                try expectJSON(
                    refused.json,
                    equals:
                        #"{"message":"APNs refused the request","errors":["APNs refused to create the broadcast channel: \#(status) \#(reason)"]}"#
                )
            }
            #expect(try await harness.rows().isEmpty, "the claim is dropped")
            let log = try await harness.log()
            #expect(log.map(\.type) == ["Other Live Activity errors"])
            #expect(log.map(\.status) == [status])
            try await harness.clearFault()
            try await harness.api { client in
                let again = try await harness.create("game-42", client)
                #expect(again.status == .created, "the activity can be asked again")
            }
        }
    }

    @Test(arguments: [(400, "BadChannelId"), (500, "InternalServerError")])
    func apnsRefusingADeleteIsA502AndKeepsTheChannel(status: Int, reason: String) async throws {
        try await ChannelHarness.with { harness in
            try await harness.api { client in
                #expect(try await harness.create("game-42", client).status == .created)
                try await harness.fault(status, reason)
                let refused = try await harness.delete("game-42", client)
                #expect(refused.status == .badGateway)
                #expect(refused.errors == ["APNs refused to delete the broadcast channel: \(status) \(reason)"])
            }
            let state = try await harness.rows()["game-42"]?.state
            #expect(state == "live")
            let statuses = try await harness.log().map(\.status)
            #expect(statuses == [status])
        }
    }

    @Test func unreachableAPNsIsA502ForCreateAndDelete() async throws {
        try await ChannelHarness.with { harness in
            try await harness.api { client in
                let created = try await harness.create("game-42", client)
                #expect(created.status == .created)
            }
            // The management endpoint moves to a port nobody listens on.
            _ = try await harness.database.tenancy.setChannelsEndpoint(
                appIdentifier: harness.tenant.app.identifier, url: "https://127.0.0.1:1")
            try await harness.api { client in
                let created = try await harness.create("game-43", client)
                #expect(created.status == .badGateway)
                #expect(try created.json["message"]?.stringValue == "APNs unavailable")
                let deleted = try await harness.delete("game-42", client)
                #expect(deleted.status == .badGateway)
            }
            #expect(try await harness.rows().keys.sorted() == ["game-42"])
            #expect(try await harness.log().map(\.type) == ["Other Live Activity errors", "Other Live Activity errors"])
        }
    }

    @Test func aCustomManagementEndpointIsUsedWhenSet() async throws {
        try await ChannelHarness.with { harness in
            // Pushes go nowhere; channels are managed at the simulator.
            let app = try await harness.database.tenancy.createApp(
                workspaceID: harness.tenant.workspace.id, name: "moved", identifier: nil, bundleID: ChannelHarness.bundleID,
                endpoint: APNsEndpoint(rawValue: "https://127.0.0.1:1")!,
                channelsEndpointURL: "https://127.0.0.1:\(harness.fixture.port)", credentials: harness.fixture.credentials)
            #expect(app.channelDestination?.endpoint.managementBaseURL == "https://127.0.0.1:\(harness.fixture.port)")
            try await harness.api { client in
                let created = try await harness.create("game-42", app: app, client)
                #expect(created.status == .created, "\(created.text)")
                #expect(try await harness.simulatorChannels().count == 1)
            }
        }
    }

    @Test func anAppWithoutASigningKeyIsA400() async throws {
        try await ChannelHarness.with(credentials: false) { harness in
            try await harness.api { client in
                let refused = try await harness.create("game-42", client)
                #expect(refused.status == .badRequest)
                try expectJSON(
                    refused.json,
                    equals:
                        #"{"message":"No push credential","errors":["app '\#(harness.tenant.app.identifier)' has no APNs signing key: broadcast channels are managed with it"]}"#
                )
            }
            #expect(try await harness.simulatorChannels().isEmpty)
        }
    }

    @Test func theRoutesNeedTheChannelsPermission() async throws {
        try await ChannelHarness.with { harness in
            let (_, secret) = try await harness.database.makeKey(
                in: harness.tenant.workspace, permissions: [.liveActivityUpdate, .liveActivityStart, .messageActivityLogRead])
            try await harness.api { client in
                let body = #"{"app_id":"\#(harness.tenant.app.identifier)","activity_id":"a"}"#
                for path in ["/live_activity/channels", "/live_activity/channels/delete"] {
                    let response = try await client.post(path, body, key: secret)
                    #expect(response.status == .forbidden)
                    #expect(response.errors == ["this API key does not have the live_activity.channels.manage permission"])
                }
                let listed = try await client.execute(
                    uri: "/live_activity/channels?app_id=\(harness.tenant.app.identifier)", method: .get, headers: .bearer(secret))
                #expect(listed.status == .forbidden)
            }
            #expect(try await harness.simulatorChannels().isEmpty)
        }
    }

    @Test func theSDKLooksTheChannelUp() async throws {
        try await ChannelHarness.with { harness in
            try await harness.api { client in
                let channelID = try await harness.create("game-42", client).json["channel_id"]?.stringValue
                let app = harness.tenant.app.identifier
                let found = try await client.execute(uri: "/push_channel?app_id=\(app)&activity_id=game-42", method: .get)
                #expect(found.status == .ok)
                try expectJSON(found.json, equals: #"{"channel_id":"\#(channelID!)"}"#)
                let missing = try await client.execute(uri: "/push_channel?app_id=\(app)&activity_id=game-43", method: .get)
                #expect(missing.status == .notFound)
                try expectJSON(
                    missing.json, equals: #"{"message":"Channel not found","errors":["activity 'game-43' has no broadcast channel"]}"#)
            }
        }
    }
}
