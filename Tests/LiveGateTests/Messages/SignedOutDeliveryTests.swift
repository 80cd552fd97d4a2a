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
import TestSupport
import Testing

extension DeliveryHarness {
    /// Registers through `POST /push_token_tag` with `user`, the body's user fields as JSON (`""` for none).
    func register(_ kind: RegisteredKind, _ token: String, device: String, user: String) async throws {
        let body = kind.body(tenant, device: device, user: user, token: token)
        try await api { client in
            let response = try await client.post("/push_token_tag", body, key: nil)
            #expect(response.status == .created, "\(response.text)")
        }
    }

    /// Posts a start of `activityID` (a `MatchAttributes` activity) to `externalIDs` and returns the
    /// answer's `errors` (users not found, users without a token).
    func start(_ activityID: String, to externalIDs: [String]) async throws -> [String] {
        let users = externalIDs.map { "\"\($0)\"" }.joined(separator: ",")
        let body = #"""
            {"app_id":"\#(tenant.app.identifier)","activity_id":"\#(activityID)",
             "activity_attributes_type":"MatchAttributes","activity_attributes":{"home":"A","away":"B"},
             "content_state":{"score":"0-0"},"external_user_ids":[\#(users)],
             "notification":{"alert":{"title":"Kick-off","body":"A v B"}}}
            """#
        let errors = NIOLockedValueBox<[String]>([])
        try await api { client in
            let response = try await client.post("/messages/live_activity/start", body, key: tenant.secret)
            #expect(response.status == .created, "\(response.text)")
            errors.withLockedValue { $0 = response.errors }
        }
        return errors.withLockedValue { $0 }
    }

    /// Delivers what is due and returns the tokens the simulator received since the last call.
    func delivered() async throws -> [String] {
        try await engine.deliverDue()
        let tokens = simulator.received.map(\.deviceToken)
        simulator.clearReceived()
        return tokens
    }
}

@Suite("A device whose user signed out, delivered: what no longer reaches it", .requiresPostgres)
struct SignedOutDeliveryTests {
    @Test func aStartToTheFormerUserNoLongerReachesTheDeviceAndOneToTheNextUserDoes() async throws {
        try await DeliveryHarness.with { harness in
            let phone = token(0x51)
            try await harness.register(.pushToStartToken, phone, device: "shared-phone", user: #""external_id":"u1""#)
            #expect(try await harness.start("match-1", to: ["u1"]) == [])
            #expect(try await harness.delivered() == [phone], "before the sign-out, a start to u1 reaches the device")

            try await harness.register(.pushToStartToken, phone, device: "shared-phone", user: #""external_id":null"#)
            #expect(
                try await harness.start("match-2", to: ["u1"])
                    == ["external_id 'u1' has no push-to-start token for MatchAttributes"])
            #expect(try await harness.delivered() == [], "after it, a start to u1 reaches nothing")

            try await harness.register(.pushToStartToken, phone, device: "shared-phone", user: #""external_id":"u2""#)
            #expect(
                try await harness.start("match-3", to: ["u1", "u2"]) == [
                    "external_id 'u1' has no push-to-start token for MatchAttributes"
                ])
            #expect(try await harness.delivered() == [phone], "the next user's start reaches it")
        }
    }

    @Test func anUpdateNarrowedToTheFormerUserSkipsTheDeviceWhileTheWholeTagStillReachesIt() async throws {
        try await DeliveryHarness.with { harness in
            let phone = token(0x52)
            try await harness.register(.updateToken, phone, device: "shared-phone", user: #""external_id":"u1""#)
            try await harness.update(#""external_id":"u1","content_state":{"score":"1-0"}"#)
            #expect(try await harness.delivered() == [phone])

            try await harness.register(.updateToken, phone, device: "shared-phone", user: #""external_id":null"#)
            try await harness.update(#""external_id":"u1","content_state":{"score":"2-0"}"#)
            #expect(try await harness.delivered() == [])
            // The activity is still on the device: an update to everyone under the tag reaches it.
            try await harness.update(#""content_state":{"score":"3-0"}"#)
            #expect(try await harness.delivered() == [phone])
        }
    }

    @Test func aStartToAnAudienceTheFormerUserMatchesSkipsTheDevice() async throws {
        try await DeliveryHarness.with { harness in
            try await harness.register(.pushToStartToken, token(0x53), device: "shared-phone", user: #""external_id":"u1""#)
            try await harness.register(.pushToStartToken, token(0x54), device: "own-phone", user: #""external_id":"u3""#)
            try await harness.track(
                #"{"external_id":"u1","team":"lions"},{"external_id":"u3","team":"lions"}"#)
            try await harness.register(.pushToStartToken, token(0x53), device: "shared-phone", user: #""external_id":null"#)

            _ = try await harness.startToAudience(AudienceDeliveryTests.lions, activityID: "final")
            #expect(try await harness.delivered() == [token(0x54)])
        }
    }
}
