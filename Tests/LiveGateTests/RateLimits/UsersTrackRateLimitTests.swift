import APNsCore
import Foundation
import HTTPTypes
import HummingbirdTesting
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import TestSupport
import Testing

/// `/users/track` counts against an hourly limit of its own, set per workspace, as Braze's does: its
/// calls neither spend nor are refused by the message endpoints' limit.
@Suite("Rate limits: /users/track's own hourly limit", .requiresPostgres)
struct UsersTrackRateLimitTests {
    static let track = #"{"attributes":[{"external_id":"fan-1","team":"lions"}]}"#

    @Test func usersTrackHasItsOwnSettableLimitApartFromTheMessageEndpoints() async throws {
        try await RateLimitTests.withLimit(1) { tenant, database, _, client in
            #expect(try await database.tenancy.setUsersTrackRateLimit(workspaceID: tenant.workspace.id, perHour: 2))
            #expect(try await database.tenancy.workspace(id: tenant.workspace.id)?.usersTrackRateLimitPerHour == 2)
            for remaining in [1, 0] {
                let response = try await client.post("/users/track", Self.track, key: tenant.secret)
                #expect(response.status == .created, "\(response.text)")
                #expect(RateLimitTests.headers(response).limit == "2")
                #expect(RateLimitTests.headers(response).remaining == String(remaining))
            }
            let refused = try await client.post("/users/track", Self.track, key: tenant.secret)
            #expect(refused.status == .tooManyRequests)
            #expect(
                try refused.json["message"]?.stringValue
                    == "Rate limit exceeded: this workspace may make 2 requests per hour to /users/track; retry after 2 seconds")
            // The message endpoints' one call an hour is still there, and spending it leaves /users/track alone.
            let update = try await client.post("/messages/live_activity/update", RateLimitTests.update(tenant), key: tenant.secret)
            #expect(update.status == .created, "\(update.text)")
            #expect(RateLimitTests.headers(update).limit == "1")
            let again = try await client.post("/messages/live_activity/update", RateLimitTests.update(tenant), key: tenant.secret)
            #expect(again.status == .tooManyRequests)
        }
    }

    @Test func aNewWorkspaceAllowsBrazesRate() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            #expect(
                try await database.tenancy.workspace(id: tenant.workspace.id)?.usersTrackRateLimitPerHour
                    == Workspace.defaultUsersTrackRateLimitPerHour)
        }
    }
}
