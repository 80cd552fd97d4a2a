import APNsCore
import APNsSimulator
import ActivityKit
import Foundation
import LiveGateDomain
import LiveGateKit
import TestSupport
import Testing

/// A courier's parcel, as an app's widget declares it: a date, an Optional and an enum in its state.
struct CourierAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        enum Status: String, Codable, CaseIterable { case sorted, outForDelivery = "out_for_delivery", delivered }

        var status: Status
        var eta: Date
        var courier: String?
    }

    var parcel: String
}

/// The SDK and the gateway agree on what the app decodes: the schema LiveGateKit derives from the app's
/// own types is registered, the update token the SDK reports names the type, and the gateway then
/// refuses what the app could not decode and sends dates the app decodes to the instant.
@Suite("LiveGateKit's derived schema against a running gateway", .heavy, .requiresPostgres)
struct PayloadTruthSDKTests {
    @Test func theDerivedSchemaGuardsTheAppsTypeEndToEnd() async throws {
        Activity<CourierAttributes>.standInReset()
        try await SDKHarness.with { harness in
            let name = LiveActivities.attributesTypeName(of: CourierAttributes.self)
            let body = try PayloadSchema.registration(
                appID: harness.tenant.app.identifier, attributes: CourierAttributes(parcel: "P-1"),
                contentState: CourierAttributes.ContentState(status: .sorted, eta: Date(), courier: "Sam"), mode: .enforce)
            let put = try await CurlHTTPClient.request(
                "PUT", harness.base + "/live_activity/types/\(name)",
                headers: ["Authorization": "Bearer \(harness.tenant.secret)", "Content-Type": "application/json"], body: body)
            #expect(put.status == 201, "\(put.text)")

            let liveGate = try harness.sdk()
            let activity = try Activity.request(
                attributes: CourierAttributes(parcel: "P-1"),
                content: ActivityContent(state: .init(status: .sorted, eta: Date(), courier: nil), staleDate: nil), pushType: .token)
            liveGate.liveActivities.launchActivity(pushTokenTag: "parcel-1", activity: activity)
            activity.standInSetPushToken(token(0x21))
            try await GatewayProcess.waitUntil("the token is registered with its type") {
                try await harness.database.count(
                    "SELECT count(*) FROM activity_tokens WHERE activity_id = 'parcel-1' AND attributes_type = $1", [name]) == 1
            }

            let refused = try await harness.post(
                "/messages/live_activity/update", #""activity_id":"parcel-1","content_state":{"status":"lost","eta":1798137000}"#)
            #expect(refused.status == 400)
            let errors = try #require(refused.json?["errors"] as? [String])
            #expect(errors.map { String($0.prefix { $0 != ":" }) }.sorted() == ["$.content_state.eta", "$.content_state.status"])

            let accepted = try await harness.post(
                "/messages/live_activity/update",
                #""activity_id":"parcel-1","content_state":{"status":"out_for_delivery","eta":"2026-12-24T18:30:00.250Z"}"#)
            #expect(accepted.status == 201, "\(accepted.text)")
            try await harness.waitUntilDone(dispatches: 1)
            let pushed = try #require(harness.simulator.received.first { $0.deviceToken == hex(0x21) })
            let state = try JSONDecoder().decode(
                CourierAttributes.ContentState.self,
                from: Data(try #require(try JSONValue.parse(pushed.payload)["aps"]?["content-state"]).serialized()))
            #expect(state.status == .outForDelivery)
            #expect(state.courier == nil)
            #expect(state.eta == Date(timeIntervalSince1970: 1_798_137_000.25))
            await liveGate.shutdown()
        }
    }
}
