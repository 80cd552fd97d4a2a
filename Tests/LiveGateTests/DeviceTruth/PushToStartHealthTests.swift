import APNsCore
import APNsSimulator
import Foundation
import HTTPTypes
import HummingbirdTesting
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import NIOConcurrencyHelpers
import PostgresClient
import TestSupport
import Testing

@Suite("GET /live_activity/push_to_start_tokens: the health of an app's push-to-start tokens", .requiresPostgres)
struct PushToStartHealthTests {
    @Test func tokensByAgeRemovalsAndTheConfirmationRateOfTheLastDaysStarts() async throws {
        try await DeliveryHarness.with { harness in
            let database = harness.database
            let tenant = harness.tenant
            // phone-a gets the start and confirms it; phone-b's token is dead; two old tokens never get one.
            try await database.registerPushToStart(
                tenant, type: "MatchAttributes", device: "phone-b", token: token(0x6b), externalID: "fan-1")
            harness.simulator.setBehavior(.unregistered, for: token(0x6b))
            _ = try await harness.startDeliveredToFan(activityID: "match-7")
            try await harness.register(token(0x7b), device: "phone-a", tag: "match-7")
            for (device, age) in [("tablet", "3 days"), ("old-phone", "60 days")] {
                try await database.registerPushToStart(tenant, type: "MatchAttributes", device: device, token: token(0x90 + device.count))
                try await database.pool.query(
                    "UPDATE push_to_start_tokens SET updated_at = now() - $1::interval WHERE device_id = $2", [age, device])
            }
            try await database.registerPushToStart(tenant, type: "OrderAttributes", device: "phone-a", token: token(0x7e))

            let body = NIOLockedValueBox<JSONValue?>(nil)
            try await harness.api { client async throws in
                let response = try await client.execute(
                    uri: "/live_activity/push_to_start_tokens?app_id=\(tenant.app.identifier)&activity_attributes_type=MatchAttributes",
                    method: .get, headers: .bearer(tenant.secret), body: nil)
                #expect(response.status == .ok, "\(response.text)")
                body.withLockedValue { $0 = try? response.json }
            }
            let json = try #require(body.withLockedValue { $0 })
            #expect(json["activity_attributes_type"]?.stringValue == "MatchAttributes")
            #expect(json["tokens"] == .integer(3), "phone-a, tablet, old-phone; phone-b's was removed")
            #expect(json["by_age"]?["day"] == .integer(1))
            #expect(json["by_age"]?["week"] == .integer(1))
            #expect(json["by_age"]?["month"] == .integer(0))
            #expect(json["by_age"]?["older"] == .integer(1))
            #expect(json["removed_by_apns_last_24h"] == .integer(1))
            let starts = try #require(json["starts_last_24h"])
            #expect(starts["starts"] == .integer(1))
            #expect(starts["sent"] == .integer(1))
            #expect(starts["confirmed"] == .integer(1))
            #expect(starts["confirmation_rate"]?.doubleValue == 1)
        }
    }

    @Test func anotherWorkspacesAppAndMissingParametersAreRefused() async throws {
        try await TestDatabase.with { database in
            let ours = try await database.makeTenant()
            let theirs = try await database.makeTenant()
            try await TestGateway.app(database).test(.router) { client async throws in
                let foreign = try await client.execute(
                    uri: "/live_activity/push_to_start_tokens?app_id=\(theirs.app.identifier)&activity_attributes_type=X",
                    method: .get, headers: .bearer(ours.secret), body: nil)
                #expect(foreign.status == .badRequest)
                let missing = try await client.execute(
                    uri: "/live_activity/push_to_start_tokens?app_id=\(ours.app.identifier)", method: .get, headers: .bearer(ours.secret),
                    body: nil)
                #expect(missing.status == .badRequest)
                #expect(missing.text.contains("activity_attributes_type is required"), "\(missing.text)")
                let empty = try await client.execute(
                    uri: "/live_activity/push_to_start_tokens?app_id=\(ours.app.identifier)&activity_attributes_type=Nothing",
                    method: .get, headers: .bearer(ours.secret), body: nil)
                #expect(empty.status == .ok)
                #expect(try empty.json["starts_last_24h"]?["confirmation_rate"] == .null)
            }
        }
    }
}
