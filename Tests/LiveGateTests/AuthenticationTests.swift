import Foundation
import Hummingbird
import HummingbirdTesting
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import NIOFoundationEssentialsCompat
import TestSupport
import Testing

@Suite("Bearer API keys: every outcome with its exact status and body", .requiresPostgres)
struct AuthenticationTests {
    let path = ProbeRoutes.path(for: .liveActivityUpdate)

    @Test func missingAuthorizationIs401() async throws {
        try await TestDatabase.with { database in
            try await TestGateway.app(database).test(.router) { client in
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.status == .unauthorized)
                #expect(response.text == #"{"message":"Missing API key: send it as 'Authorization: Bearer <key>'"}"#)
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
            }
        }
    }

    @Test(arguments: ["Basic dXNlcjpwYXNz", "Bearer", "Bearer    ", "lg_nobearer"])
    func malformedAuthorizationIs401(header: String) async throws {
        try await TestDatabase.with { database in
            try await TestGateway.app(database).test(.router) { client in
                let response = try await client.execute(uri: path, method: .get, headers: [.authorization: header])
                #expect(response.status == .unauthorized)
                #expect(response.text == #"{"message":"Missing API key: send it as 'Authorization: Bearer <key>'"}"#)
            }
        }
    }

    @Test(arguments: ["lg_not-a-real-key", "something-else-entirely", APIKeySecret.generate().value])
    func unknownKeyIs401(key: String) async throws {
        try await TestDatabase.with { database in
            let workspace = try await database.makeWorkspace()
            _ = try await database.makeKey(in: workspace)
            try await TestGateway.app(database).test(.router) { client in
                let response = try await client.execute(uri: path, method: .get, headers: .bearer(key))
                #expect(response.status == .unauthorized)
                #expect(response.text == #"{"message":"Invalid API key"}"#)
            }
        }
    }

    @Test func revokedKeyIs401() async throws {
        try await TestDatabase.with { database in
            let workspace = try await database.makeWorkspace()
            let (key, secret) = try await database.makeKey(in: workspace)
            let uncached = GatewayConfiguration(lookupCacheTimeToLive: .zero)
            try await TestGateway.app(database, configuration: uncached).test(.router) { client in
                let before = try await client.execute(uri: path, method: .get, headers: .bearer(secret))
                #expect(before.status == .ok)
                #expect(try await database.apiKeys.revoke(id: key.id))
                let after = try await client.execute(uri: path, method: .get, headers: .bearer(secret))
                #expect(after.status == .unauthorized)
                #expect(after.text == #"{"message":"Invalid API key: this key has been revoked"}"#)
            }
        }
    }

    /// Keys are cached for a short time so the hot path skips the database: within that time a revoked
    /// key still works (the documented delay)...
    @Test func aCachedKeyOutlivesItsRevocationForTheCacheLifetime() async throws {
        try await TestDatabase.with { database in
            let workspace = try await database.makeWorkspace()
            let (key, secret) = try await database.makeKey(in: workspace)
            let cached = GatewayConfiguration(lookupCacheTimeToLive: .seconds(60))
            try await TestGateway.app(database, configuration: cached).test(.router) { client async throws in
                #expect(try await client.execute(uri: path, method: .get, headers: .bearer(secret)).status == .ok)
                #expect(try await database.apiKeys.revoke(id: key.id))
                #expect(try await client.execute(uri: path, method: .get, headers: .bearer(secret)).status == .ok)
            }
        }
    }

    /// ...and once the entry expires, the revocation bites.
    @Test func revocationBitesWhenTheCachedKeyExpires() async throws {
        try await TestDatabase.with { database in
            let workspace = try await database.makeWorkspace()
            let (key, secret) = try await database.makeKey(in: workspace)
            let cached = GatewayConfiguration(lookupCacheTimeToLive: .milliseconds(200))
            try await TestGateway.app(database, configuration: cached).test(.router) { client async throws in
                #expect(try await client.execute(uri: path, method: .get, headers: .bearer(secret)).status == .ok)
                #expect(try await database.apiKeys.revoke(id: key.id))
                try await Task.sleep(for: .milliseconds(400))
                let after = try await client.execute(uri: path, method: .get, headers: .bearer(secret))
                #expect(after.status == .unauthorized)
            }
        }
    }

    @Test func validKeyPassesAndSchemeIsCaseInsensitive() async throws {
        try await TestDatabase.with { database in
            let workspace = try await database.makeWorkspace()
            let (_, secret) = try await database.makeKey(in: workspace)
            try await TestGateway.app(database).test(.router) { client in
                for scheme in ["Bearer", "bearer", "BEARER"] {
                    let response = try await client.execute(
                        uri: path, method: .get, headers: [.authorization: "\(scheme) \(secret)"])
                    #expect(response.status == .ok)
                    #expect(response.text == #"{"permission":"messages.live_activity.update"}"#)
                }
            }
        }
    }

    @Test func keyOfAnotherDatabaseRowIsNotAcceptedByPrefixOrHint() async throws {
        try await TestDatabase.with { database in
            let workspace = try await database.makeWorkspace()
            let (key, secret) = try await database.makeKey(in: workspace)
            try await TestGateway.app(database).test(.router) { client in
                // The hint shown by `key list` is a prefix of the key, never enough to use it.
                let byHint = try await client.execute(uri: path, method: .get, headers: .bearer(key.hint))
                #expect(byHint.status == .unauthorized)
                let truncated = try await client.execute(uri: path, method: .get, headers: .bearer(String(secret.dropLast())))
                #expect(truncated.status == .unauthorized)
            }
        }
    }

    @Test func currentKeyEndpointDescribesTheKeyWithoutItsSecret() async throws {
        try await TestDatabase.with { database in
            let workspace = try await database.makeWorkspace()
            let (key, secret) = try await database.makeKey(
                in: workspace, permissions: [.messageActivityLogRead], allowing: ["10.0.0.0/8", "127.0.0.1"], name: "ops")
            let app = TestGateway.app(database)
            try await app.test(.router) { client in
                // Router tests have no peer address; an allowlisted key is refused there (fail closed).
                let refused = try await client.execute(uri: "/api_keys/current", method: .get, headers: .bearer(secret))
                #expect(refused.status == .forbidden)
            }
            let (openKey, openSecret) = try await database.makeKey(in: workspace, permissions: [.liveActivityStart], name: "open")
            try await app.test(.router) { client in
                let response = try await client.execute(uri: "/api_keys/current", method: .get, headers: .bearer(openSecret))
                #expect(response.status == .ok)
                let json = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                #expect(json["id"] as? String == openKey.id.uuidString.lowercased())
                #expect(json["workspace_id"] as? String == workspace.id.uuidString.lowercased())
                #expect(json["name"] as? String == "open")
                #expect(json["permissions"] as? [String] == ["messages.live_activity.start"])
                #expect(json["allowed_ips"] as? [String] == [])
                #expect(!response.text.contains(openSecret))
            }
            _ = key
        }
    }
}
