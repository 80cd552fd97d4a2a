import APNsCore
import APNsSimulator
import HTTPTypes
import HummingbirdTesting
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import TestSupport
import Testing

extension DeliveryHarness {
    /// Starts `activityID` (a `MatchAttributes` activity) for user `fan-1`, whose push-to-start token is
    /// `token(0x7a)`, delivers it, and returns the `aps` the simulator received: exactly one push, to that token.
    func startDeliveredToFan(activityID: String) async throws -> JSONValue {
        try await database.registerPushToStart(
            tenant, type: "MatchAttributes", device: "phone-a", token: token(0x7a), externalID: "fan-1")
        let body = #"""
            {"app_id":"\#(tenant.app.identifier)","activity_id":"\#(activityID)",
             "activity_attributes_type":"MatchAttributes","activity_attributes":{"home":"A","away":"B"},
             "content_state":{"score":"0-0"},"external_user_ids":["fan-1"],
             "notification":{"alert":{"title":"Kick-off","body":"A v B"}}}
            """#
        try await api { client in
            let response = try await client.post("/messages/live_activity/start", body, key: tenant.secret)
            #expect(response.status == .created, "\(response.text)")
        }
        try await engine.deliverDue()
        let received = simulator.received
        #expect(received.map(\.deviceToken) == [token(0x7a)])
        let started = try #require(received.first)
        return try #require(try JSONValue.parse(started.payload)["aps"])
    }
}
