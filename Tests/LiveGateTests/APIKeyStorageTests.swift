import APNsClient
import APNsCore
import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import PostgresClient
import TestSupport
import Testing

@Suite("API keys: random, hashed, never stored in the clear", .requiresPostgres)
struct APIKeyStorageTests {
    @Test func keysHaveAtLeast128RandomBitsAndDiffer() {
        let keys = (0..<200).map { _ in APIKeySecret.generate().value }
        #expect(Set(keys).count == keys.count)
        for key in keys {
            #expect(key.hasPrefix("lg_"))
            // 32 random bytes in unpadded base64url: 43 characters, 256 bits.
            let body = key.dropFirst(3)
            #expect(body.count == 43)
            #expect(body.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        }
    }

    @Test func onlyTheSHA256HashIsStored() async throws {
        try await TestDatabase.with { database in
            let workspace = try await database.makeWorkspace()
            let (key, secret) = try await database.makeKey(in: workspace)
            let rows = try await database.pool.query("SELECT * FROM api_keys WHERE id = $1", [key.id])
            let row = rows[0]
            for (column, value) in zip(row.columns, row.values) {
                #expect(value?.contains(String(secret.dropFirst(3))) != true, "column \(column) holds the key")
            }
            let expected = try await database.pool.query(
                "SELECT sha256(convert_to($1, 'UTF8')) = key_hash AS same FROM api_keys WHERE id = $2", [secret, key.id])
            #expect(try expected[0].require("same", as: Bool.self))
        }
    }

    @Test func revokingTwiceKeepsTheFirstTime() async throws {
        try await TestDatabase.with { database in
            let workspace = try await database.makeWorkspace()
            let (key, _) = try await database.makeKey(in: workspace)
            #expect(try await database.apiKeys.revoke(id: key.id))
            let first = try await database.apiKeys.list(workspaceID: workspace.id)[0].revokedAt
            try await Task.sleep(for: .milliseconds(20))
            #expect(try await database.apiKeys.revoke(id: key.id))
            #expect(try await database.apiKeys.list(workspaceID: workspace.id)[0].revokedAt == first)
            #expect(try await database.apiKeys.revoke(id: UUID()) == false)
        }
    }

    @Test func privateKeysNeverAppearInDescriptions() async throws {
        let credentials = APNsCredentials(
            teamID: "TEAM123456", keyID: "KEY1234567",
            privateKeyPEM: "-----BEGIN PRIVATE KEY-----\nSECRETBYTES\n-----END PRIVATE KEY-----\n")
        #expect(!String(describing: credentials).contains("SECRETBYTES"))
        #expect(!String(describing: APIKeySecret(value: "lg_abcdefghijklmnopqrstuvwxyz")).contains("qrstuvwxyz"))
    }
}
