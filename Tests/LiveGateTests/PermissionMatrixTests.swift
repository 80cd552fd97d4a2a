import Hummingbird
import HummingbirdTesting
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import PostgresClient
import TestSupport
import Testing

@Suite("Each route needs its own permission", .requiresPostgres)
struct PermissionMatrixTests {
    /// Every subset of the permissions, the empty one included.
    static let grants: [Set<APIKeyPermission>] = {
        let all = APIKeyPermission.all
        return (0..<(1 << all.count)).map { mask in
            Set(all.indices.filter { mask & (1 << $0) != 0 }.map { all[$0] })
        }
    }()

    @Test func everyGrantAgainstEveryPermission() async throws {
        try await TestDatabase.with { database in
            let workspace = try await database.makeWorkspace()
            var made: [(Set<APIKeyPermission>, String)] = []
            for grant in Self.grants where !grant.isEmpty {
                made.append((grant, try await database.makeKey(in: workspace, permissions: grant).secret))
            }
            let keys = made
            try await TestGateway.app(database).test(.router) { client async throws in
                for (grant, secret) in keys {
                    for permission in APIKeyPermission.all {
                        let response = try await client.execute(
                            uri: ProbeRoutes.path(for: permission), method: .get, headers: .bearer(secret))
                        if grant.contains(permission) {
                            #expect(response.status == .ok, "\(grant) on \(permission)")
                        } else {
                            #expect(response.status == .forbidden, "\(grant) on \(permission)")
                            #expect(
                                response.text
                                    == #"{"errors":["this API key does not have the \#(permission) permission"],"message":"Access Denied"}"#
                            )
                        }
                    }
                }
            }
        }
    }

    /// The same matrix on the real message routes: 201 with the permission, 403 without, nothing committed.
    @Test func messageRoutesNeedTheirOwnPermission() async throws {
        try await TestDatabase.with { database in
            let workspace = try await database.makeWorkspace()
            let app = try await database.makeApp(in: workspace)
            var made: [(Set<APIKeyPermission>, String)] = []
            for grant in Self.grants where !grant.isEmpty {
                made.append((grant, try await database.makeKey(in: workspace, permissions: grant).secret))
            }
            let keys = made
            let routes: [(String, APIKeyPermission, String)] = [
                (
                    "/messages/live_activity/update", .liveActivityUpdate,
                    #"{"app_id":"\#(app.identifier)","activity_id":"a","content_state":{}}"#
                ),
                (
                    "/messages/live_activity/start", .liveActivityStart,
                    #"{"app_id":"\#(app.identifier)","activity_id":"a","activity_attributes_type":"T","activity_attributes":{},"content_state":{},"notification":{"alert":{"title":"t","body":"b"}},"external_id":"u"}"#
                ),
            ]
            let expectedDispatches = keys.reduce(0) { total, key in
                total + routes.filter { key.0.contains($0.1) }.count
            }
            try await TestGateway.app(database).test(.router) { client async throws in
                for (grant, secret) in keys {
                    for (path, permission, body) in routes {
                        let response = try await client.execute(
                            uri: path, method: .post, headers: .bearer(secret).merging(.json), body: ByteBuffer(string: body))
                        if grant.contains(permission) {
                            #expect(response.status == .created, "\(grant) on \(path)")
                        } else {
                            #expect(response.status == .forbidden, "\(grant) on \(path)")
                        }
                    }
                }
            }
            let committed: Int = try await database.pool.query("SELECT count(*)::int AS n FROM dispatches")[0].require("n")
            #expect(committed == expectedDispatches)
        }
    }

    @Test func aKeyWithoutPermissionsCannotBeMade() async throws {
        try await TestDatabase.with { database in
            let workspace = try await database.makeWorkspace()
            // The schema allows it, but the CLI refuses it; a key that can do nothing is still refused everywhere.
            let (_, secret) = try await database.makeKey(in: workspace, permissions: [])
            try await TestGateway.app(database).test(.router) { client async throws in
                for permission in APIKeyPermission.all {
                    let response = try await client.execute(uri: ProbeRoutes.path(for: permission), method: .get, headers: .bearer(secret))
                    #expect(response.status == .forbidden)
                }
            }
        }
    }
}
