import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateKit
import LiveGateStore
import PostgresClient
import TestSupport
import Testing

/// Signs the SDK authentication JWTs a customer's server would (PyJWT, ES256), each for a lifetime.
actor JWTProvider {
    let key: String
    /// The lifetime of each token asked for, in order; the last is repeated.
    let lifetimes: [Int]
    private(set) var asked = 0

    init(key: String, lifetimes: [Int]) {
        self.key = key
        self.lifetimes = lifetimes
    }

    func token(for externalID: String) async throws -> String {
        let lifetime = lifetimes[min(asked, lifetimes.count - 1)]
        asked += 1
        let output = try await Subprocess.run(
            "/usr/bin/env",
            [
                "python3", "-c",
                "import jwt, sys, time; now = int(time.time()); print(jwt.encode({'sub': sys.argv[2], 'iat': now - 7200, 'exp': now + int(sys.argv[3])}, open(sys.argv[1]).read(), algorithm='ES256'))",
                key, externalID, String(lifetime),
            ])
        guard output.status == 0 else { throw Subprocess.Failure(description: "PyJWT failed: \(output.stderr)") }
        return output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

@Suite("LiveGateKit and SDK authentication", .heavy, .requiresPostgres)
struct SDKAuthenticationTests {
    /// The JWT the SDK holds has expired by the time it reports (beyond the gateway's minute of clock
    /// leeway): the gateway answers 401, the SDK asks the provider once more and the report goes through,
    /// with no error for the app (nothing was lost or refused).
    @Test func anExpiredTokenIsAskedForAgainAndTheReportGoesThroughOnce() async throws {
        try await SDKHarness.with { harness in
            let keys = harness.folder.appendingPathComponent("keys")
            try FileManager.default.createDirectory(at: keys, withIntermediateDirectories: true)
            let privateKey = keys.appendingPathComponent("sdk-auth.pem").path
            let publicKey = keys.appendingPathComponent("sdk-auth.pub.pem").path
            for command in [
                ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", privateKey],
                ["pkey", "-in", privateKey, "-pubout", "-out", publicKey],
            ] {
                #expect(try await Subprocess.run("/usr/bin/env", ["openssl"] + command).status == 0)
            }
            let enforce = try await Subprocess.run(
                LiveGateBinary.path, ["app", "sdk-auth", harness.tenant.app.identifier, "--public-key", publicKey, "--enforce"],
                environment: harness.environment)
            #expect(enforce.status == 0, "\(enforce.stderr)")

            let provider = JWTProvider(key: privateKey, lifetimes: [-3600, 600])
            let liveGate = try harness.sdk(token: { try await provider.token(for: $0) })
            await liveGate.changeUser(externalID: "fan-9")
            await liveGate.liveActivities.reportUpdateToken(token(0x61), tag: "order-11")
            await liveGate.flush()

            #expect(await provider.asked == 2)
            let stored = try await harness.database.pool.query(
                """
                SELECT u.external_id FROM activity_tokens t JOIN users u ON u.id = t.user_id
                WHERE t.app_id = $1 AND t.activity_id = 'order-11'
                """, [harness.tenant.app.id])
            #expect(try stored.map { try $0.require("external_id", as: String.self) } == ["fan-9"])
            await liveGate.shutdown()
        }
    }
}
