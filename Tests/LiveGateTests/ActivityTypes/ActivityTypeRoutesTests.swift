import APNsCore
import Foundation
import HTTPTypes
import HummingbirdTesting
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import NIOConcurrencyHelpers
import NIOCore
import PostgresClient
import TestSupport
import Testing

/// `/live_activity/types`: an app's ActivityAttributes types registered, read, listed and removed, and
/// schemas that are not ones refused, naming where.
@Suite("Activity types", .requiresPostgres)
struct ActivityTypeRoutesTests {
    static func call(
        _ client: some TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, _ body: String? = nil, key: String
    ) async throws -> TestResponse {
        var headers: HTTPFields = [.authorization: "Bearer \(key)"]
        if body != nil { headers[.contentType] = "application/json" }
        return try await client.execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
    }

    @Test func aTypeIsRegisteredReplacedReadListedAndRemoved() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            let app = tenant.app.identifier
            try await TestGateway.app(database).test(.router) { client async throws in
                let path = "/live_activity/types/\(DeliveryTracking.name)"
                let created = try await Self.call(client, .put, path, DeliveryTracking.registration(appID: app), key: tenant.secret)
                #expect(created.status == .created, "\(created.text)")
                try expectJSON(
                    created.json,
                    equals: #"""
                        {"attributes_type":"DeliveryTracking","app_id":"\#(app)","content_state":\#(DeliveryTracking.contentStateSchema),
                         "attributes":\#(DeliveryTracking.attributesSchema),"mode":"enforce",
                         "updated_at":\#(try created.json["updated_at"]!.serialized().asString),"message":"success"}
                        """#)

                let replaced = try await Self.call(
                    client, .put, path, DeliveryTracking.registration(appID: app, mode: "warn"), key: tenant.secret)
                #expect(replaced.status == .ok, "\(replaced.text)")
                #expect(try replaced.json["mode"]?.stringValue == "warn")

                let list = try await Self.call(client, .get, "/live_activity/types?app_id=\(app)", key: tenant.secret)
                #expect(list.status == .ok)
                let types = try #require(try list.json["types"]?.arrayValue)
                #expect(types.map { $0["attributes_type"]?.stringValue } == [DeliveryTracking.name])
                #expect(types.first?["mode"]?.stringValue == "warn")

                let one = try await Self.call(client, .get, "\(path)?app_id=\(app)", key: tenant.secret)
                #expect(one.status == .ok)
                #expect(try one.json["content_state"]?.isEquivalent(to: JSONValue.parse(DeliveryTracking.contentStateSchema)) == true)

                let removed = try await Self.call(client, .delete, "\(path)?app_id=\(app)", key: tenant.secret)
                #expect(removed.status == .ok)
                #expect(removed.text == #"{"message":"success"}"#)
                for method in [HTTPRequest.Method.get, .delete] {
                    let gone = try await Self.call(client, method, "\(path)?app_id=\(app)", key: tenant.secret)
                    #expect(gone.status == .notFound)
                    #expect(gone.errors == ["the app has no activity type 'DeliveryTracking'"])
                }
                #expect(try await database.count("SELECT count(*) FROM activity_types") == 0)
            }
        }
    }

    @Test func aSchemaThatIsNotOneIsRefusedNamingWhere() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await TestGateway.app(database).test(.router) { client async throws in
                for (schema, path) in [
                    (#"{"type":"object","properties":{"home":{"type":"int"}}}"#, "content_state.properties.home.type: "),
                    (#"{"type":"object","properties":{"home":{"type":"integer"}},"required":["away"]}"#, "content_state.required"),
                    (#"{"type":"object","minProperties":1}"#, "content_state.minProperties"),
                ] {
                    let body = #"{"app_id":"\#(tenant.app.identifier)","content_state":\#(schema)}"#
                    let refused = try await Self.call(client, .put, "/live_activity/types/Score", body, key: tenant.secret)
                    #expect(refused.status == .badRequest)
                    #expect(refused.errors.count == 1)
                    #expect(refused.errors.first?.hasPrefix(path) == true, "\(refused.errors)")
                }

                let noSchema = try await Self.call(
                    client, .put, "/live_activity/types/Score", #"{"app_id":"\#(tenant.app.identifier)","mode":"loud"}"#,
                    key: tenant.secret)
                #expect(
                    noSchema.errors == [
                        "content_state is required: the JSON schema of the type's content_state",
                        "mode must be 'enforce' or 'warn', got 'loud'",
                    ])
                #expect(try await database.count("SELECT count(*) FROM activity_types") == 0)
            }
        }
    }

    @Test func anotherWorkspacesAppAndAKeyWithoutThePermissionGetNothing() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            let other = try await database.makeTenant()
            let limited = try await database.makeTenant(permissions: [.liveActivityUpdate])
            try await TestGateway.app(database).test(.router) { client async throws in
                let path = "/live_activity/types/\(DeliveryTracking.name)"
                let foreign = try await Self.call(
                    client, .put, path, DeliveryTracking.registration(appID: other.app.identifier), key: tenant.secret)
                #expect(foreign.status == .badRequest)
                #expect(foreign.errors == ["no app has app_id '\(other.app.identifier)' in this API key's workspace"])
                let denied = try await Self.call(
                    client, .put, path, DeliveryTracking.registration(appID: limited.app.identifier), key: limited.secret)
                #expect(denied.status == .forbidden)
                #expect(denied.errors == ["this API key does not have the live_activity.types permission"])
            }
        }
    }
}

extension [UInt8] {
    var asString: String { String(decoding: self, as: UTF8.self) }
}
