import Hummingbird
import HummingbirdTesting
import LiveGate
import Testing
import TestSupport

@Suite("Each route needs its own permission")
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
            try await TestGateway.app(database).test(.router) { client in
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
                                    == #"{"errors":["this API key does not have the \#(permission) permission"],"message":"Access Denied"}"#)
                        }
                    }
                }
            }
        }
    }

    @Test func aKeyWithoutPermissionsCannotBeMade() async throws {
        try await TestDatabase.with { database in
            let workspace = try await database.makeWorkspace()
            // The schema allows it, but the CLI refuses it; a key that can do nothing is still refused everywhere.
            let (_, secret) = try await database.makeKey(in: workspace, permissions: [])
            try await TestGateway.app(database).test(.router) { client in
                for permission in APIKeyPermission.all {
                    let response = try await client.execute(uri: ProbeRoutes.path(for: permission), method: .get, headers: .bearer(secret))
                    #expect(response.status == .forbidden)
                }
            }
        }
    }
}
