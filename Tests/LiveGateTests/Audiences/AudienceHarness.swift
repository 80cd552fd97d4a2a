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

extension DeliveryHarness {
    /// Posts a start of `activityID` (a `MatchAttributes` activity) with `targeting` (the body's
    /// audience fields) and returns the dispatch id.
    func startToAudience(_ targeting: String, activityID: String, score: String = "0-0") async throws -> String {
        let body = #"""
            {"app_id":"\#(tenant.app.identifier)","activity_id":"\#(activityID)",
             "activity_attributes_type":"MatchAttributes","activity_attributes":{"home":"A","away":"B"},
             "content_state":{"score":"\#(score)"},\#(targeting),
             "notification":{"alert":{"title":"Kick-off","body":"A v B"}}}
            """#
        let id = NIOLockedValueBox<String?>(nil)
        try await api { client in
            let response = try await client.post("/messages/live_activity/start", body, key: tenant.secret)
            #expect(response.status == .created, "\(response.text)")
            id.withLockedValue { $0 = response.dispatchID }
        }
        return try #require(id.withLockedValue { $0 })
    }

    /// Sets users' attributes through `POST /users/track`.
    func track(_ attributes: String) async throws {
        try await api { client in
            let response = try await client.post("/users/track", #"{"attributes":[\#(attributes)]}"#, key: tenant.secret)
            #expect(response.status == .created, "\(response.text)")
        }
    }

    /// `count` users (`fan-0`, `fan-1`, …), each with a push-to-start token for `MatchAttributes`
    /// (`token(numbered:)`) and the attribute `team`: "lions" for every `lionsEvery`-th user, "bears" for
    /// the rest. Written straight into the tables: for audiences too large to register one call at a time.
    func insertFans(_ count: Int, lionsEvery: Int) async throws {
        try await database.pool.query(
            """
            WITH made AS (
                INSERT INTO users (workspace_id, external_id)
                SELECT $1, 'fan-' || i FROM generate_series(0, $2 - 1) AS i
                RETURNING id, substr(external_id, 5)::int AS i
            ), tokens AS (
                INSERT INTO push_to_start_tokens (app_id, attributes_type, device_id, user_id, push_token)
                SELECT $3, 'MatchAttributes', 'phone-' || i, id, repeat('ab', 28) || lpad(to_hex(i), 8, '0') FROM made
            )
            INSERT INTO user_attributes (user_id, name, kind, string_value)
            SELECT id, 'team', 'string', CASE WHEN i % $4 = 0 THEN 'lions' ELSE 'bears' END FROM made
            """, [tenant.app.workspaceID, count, tenant.app.id, lionsEvery])
    }

    /// The users (`external_id`) whose devices the simulator received a push for, then forgets them.
    func usersReached(_ tokensToUsers: [String: String]) -> Set<String> {
        let reached = Set(simulator.received.compactMap { tokensToUsers[$0.deviceToken] })
        simulator.clearReceived()
        return reached
    }
}

/// Dates as Braze's attributes take them.
func iso8601(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.string(from: date)
}
