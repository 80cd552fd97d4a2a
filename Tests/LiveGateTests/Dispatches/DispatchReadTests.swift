import APNsCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LiveGate
import Testing
import TestSupport

/// `GET /messages/live_activity/dispatches/{id}` read back from PostgreSQL, as the dashboard's dispatch
/// page reads it: every key of the body, with the app named by its `app_id`.
@Suite("GET /messages/live_activity/dispatches/{id}")
struct DispatchReadTests {
    @Test func anAcceptedUpdateReadsBackWithEveryField() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant(permissions: [.liveActivityUpdate, .messageActivityLogRead])
            try await TestGateway.app(database).test(.router) { client in
                let accepted = try await client.post(
                    "/messages/live_activity/update",
                    #"{"app_id":"\#(tenant.app.identifier)","activity_id":"game-42","content_state":{"n":1},"external_id":"fan-7"}"#,
                    key: tenant.secret)
                #expect(accepted.status == .created, "\(accepted.text)")
                let id = try #require(accepted.dispatchID)

                let response = try await client.execute(
                    uri: "/messages/live_activity/dispatches/\(id)", method: .get, headers: .bearer(tenant.secret))
                #expect(response.status == .ok, "\(response.text)")
                let body = try response.json
                #expect(body["dispatch_id"]?.stringValue == id)
                #expect(body["app_id"]?.stringValue == tenant.app.identifier)
                #expect(body["activity_id"]?.stringValue == "game-42")
                #expect(body["event"]?.stringValue == "update")
                #expect(body["external_id"]?.stringValue == "fan-7")
                // No delivery runs in this test: it waits for a worker.
                #expect(body["status"]?.stringValue == "pending")
                #expect(body["accepted_at"]?.stringValue?.hasSuffix("Z") == true)
                for absent in ["send_at", "completed_at", "superseded_by"] {
                    #expect(body[absent] == .null, "\(absent)")
                }
                try expectJSON(try #require(body["devices"]), equals: #"{"sent":0,"failed":0,"retried":0,"removed":0}"#)
                #expect(body["message"]?.stringValue == "success")
            }
        }
    }
}
