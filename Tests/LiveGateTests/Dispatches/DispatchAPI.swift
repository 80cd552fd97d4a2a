import APNsCore
import Foundation
import HTTPTypes
import HummingbirdTesting
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import NIOCore
import TestSupport
import Testing

/// A tenant's calls to the message endpoints and the dispatch resource, through the real router, with
/// no delivery running: dispatches stay where the API left them.
struct DispatchAPI {
    let database: TestDatabase
    let tenant: Tenant
    let client: any TestClientProtocol

    static func with(clock: MessageClock = .system, _ body: @escaping @Sendable (DispatchAPI) async throws -> Void) async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await TestGateway.app(database, clock: clock).test(.router) { client in
                try await body(DispatchAPI(database: database, tenant: tenant, client: client))
            }
        }
    }

    /// Posts an update (or end) of `activity` and returns its dispatch id.
    @discardableResult
    func update(
        _ activity: String = "match-1", externalID: String? = nil, end: Bool = false, sendAt: String? = nil,
        state: String = #"{"score":"1-0"}"#
    ) async throws -> String {
        var fields = [#""app_id":"\#(tenant.app.identifier)""#, #""activity_id":"\#(activity)""#, #""content_state":\#(state)"#]
        if let externalID { fields.append(#""external_id":"\#(externalID)""#) }
        if end { fields.append(#""end_activity":true"#) }
        if let sendAt { fields.append(#""send_at":"\#(sendAt)""#) }
        let response = try await client.post("/messages/live_activity/update", "{\(fields.joined(separator: ","))}", key: tenant.secret)
        #expect(response.status == .created, "\(response.text)")
        return try #require(response.dispatchID)
    }

    /// Posts a start of `activity` for one user and returns its dispatch id.
    @discardableResult
    func start(_ activity: String = "match-1", sendAt: String? = nil) async throws -> String {
        let scheduled = sendAt.map { #","send_at":"\#($0)""# } ?? ""
        let body = #"""
            {"app_id":"\#(tenant.app.identifier)","activity_id":"\#(activity)","activity_attributes_type":"MatchAttributes",
             "activity_attributes":{"home":"A","away":"B"},"content_state":{"score":"0-0"},"external_user_ids":["fan-1"],
             "notification":{"alert":{"title":"Kick-off","body":"A v B"}}\#(scheduled)}
            """#
        let response = try await client.post("/messages/live_activity/start", body, key: tenant.secret)
        #expect(response.status == .created, "\(response.text)")
        return try #require(response.dispatchID)
    }

    func get(_ id: String, key: String? = nil) async throws -> TestResponse {
        try await client.execute(
            uri: "/messages/live_activity/dispatches/\(id)", method: .get, headers: .bearer(key ?? tenant.secret), body: nil)
    }

    func cancel(_ id: String, key: String? = nil) async throws -> TestResponse {
        try await client.execute(
            uri: "/messages/live_activity/dispatches/\(id)", method: .delete, headers: .bearer(key ?? tenant.secret), body: nil)
    }

    /// The dispatch's `status` as the resource shows it.
    func status(_ id: String) async throws -> String? {
        let response = try await get(id)
        #expect(response.status == .ok, "\(response.text)")
        return try response.json["status"]?.stringValue
    }

    func supersededBy(_ id: String) async throws -> String? {
        try await get(id).json["superseded_by"]?.stringValue
    }
}
