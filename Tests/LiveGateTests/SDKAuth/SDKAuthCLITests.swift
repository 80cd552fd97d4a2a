import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import PostgresClient
import TestSupport
import Testing

@Suite("livegate app sdk-auth, run as a subprocess", .requiresPostgres)
struct SDKAuthCLITests {
    static func stored(_ database: TestDatabase, _ appID: String) async throws -> (keys: [String], enforced: Bool) {
        let row = try await database.pool.query(
            "SELECT sdk_auth_public_keys, sdk_auth_enforced FROM apps WHERE app_identifier = $1", [appID])[0]
        return (try row.require("sdk_auth_public_keys"), try row.require("sdk_auth_enforced"))
    }

    @Test func keysAreReplacedKeptAndEnforcementSwitched() async throws {
        let files = try await SDKAuthKeyFiles.shared.value
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            let url = database.connectionString
            let appID = tenant.app.identifier

            let enforce = try await LiveGateBinary.run(
                [
                    "app", "sdk-auth", appID, "--public-key", files.path("ec.pub.pem"), "--public-key", files.path("rsa.pub.pem"),
                    "--enforce",
                ],
                databaseURL: url)
            #expect(enforce.status == 0, "\(enforce.stderr)")
            #expect(enforce.lastLine == appID)
            #expect(enforce.stdout.contains("enforces SDK authentication"))
            #expect(enforce.stdout.contains("ES256 key, EC P-256, SHA-256 \(try await files.opensslFingerprint("ec.pub.pem"))"))
            #expect(enforce.stdout.contains("RS256 key, RSA 2048 bits, SHA-256 \(try await files.opensslFingerprint("rsa.pub.pem"))"))
            var state = try await Self.stored(database, appID)
            #expect(state.enforced)
            #expect(state.keys == [try files.text("ec.pub.pem"), try files.text("rsa.pub.pem")])

            // --off keeps the keys.
            let off = try await LiveGateBinary.run(["app", "sdk-auth", appID, "--off"], databaseURL: url)
            #expect(off.status == 0, "\(off.stderr)")
            #expect(off.stdout.contains("does not enforce SDK authentication; 2 public key(s)"))
            state = try await Self.stored(database, appID)
            #expect(!state.enforced)
            #expect(state.keys.count == 2)

            // Keys given replace the old ones: the rotation is over.
            let rotated = try await LiveGateBinary.run(
                ["app", "sdk-auth", appID, "--public-key", files.path("ec2.pub.pem"), "--enforce"], databaseURL: url)
            #expect(rotated.status == 0, "\(rotated.stderr)")
            state = try await Self.stored(database, appID)
            #expect(state.enforced)
            #expect(state.keys == [try files.text("ec2.pub.pem")])
            // The gateway reads the app as the CLI left it.
            let app = try #require(try await database.tenancy.app(identifier: appID))
            #expect(app.sdkAuthentication.keys.map(\.algorithm) == [.es256])
        }
    }

    @Test func enforcingWithoutAnyKeyIsRefused() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            let result = try await LiveGateBinary.run(
                ["app", "sdk-auth", tenant.app.identifier, "--enforce"], databaseURL: database.connectionString)
            #expect(result.status != 0)
            #expect(result.stderr.contains("SDK authentication cannot be enforced without a public key"), "\(result.stderr)")
            #expect(try await Self.stored(database, tenant.app.identifier).enforced == false)
        }
    }

    @Test(arguments: [
        (["--public-key", "ec.pem", "--enforce"], "this is a private key: give only its public half"),
        (["--public-key", "p384.pub.pem", "--enforce"], "EC keys must be on the P-256 curve"),
        (["--public-key", "ec.pub.pem", "--public-key", "ec.pub.pem", "--enforce"], "the same public key was given twice"),
        (
            ["--public-key", "ec.pub.pem", "--public-key", "ec2.pub.pem", "--public-key", "rsa.pub.pem", "--enforce"],
            "give at most 2 --public-key files"
        ),
        (["--public-key", "missing.pem", "--enforce"], "cannot read --public-key"),
        (["--public-key", "ec.pub.pem"], "give exactly one of --enforce and --off"),
        (["--enforce", "--off"], "give exactly one of --enforce and --off"),
    ])
    func badArgumentsChangeNothing(arguments: [String], expected: String) async throws {
        let files = try await SDKAuthKeyFiles.shared.value
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            let resolved = arguments.map { $0.hasSuffix(".pem") ? files.path($0) : $0 }
            let result = try await LiveGateBinary.run(
                ["app", "sdk-auth", tenant.app.identifier] + resolved, databaseURL: database.connectionString)
            #expect(result.status != 0)
            #expect(result.stderr.contains(expected), "\(result.stderr)")
            let state = try await Self.stored(database, tenant.app.identifier)
            #expect(state.keys.isEmpty && !state.enforced)
        }
    }

    @Test func anUnknownAppIsAClearError() async throws {
        let files = try await SDKAuthKeyFiles.shared.value
        try await TestDatabase.with { database in
            let result = try await LiveGateBinary.run(
                ["app", "sdk-auth", "nope", "--public-key", files.path("ec.pub.pem"), "--enforce"], databaseURL: database.connectionString)
            #expect(result.status != 0)
            #expect(result.stderr.contains("no app has app_id 'nope'"), "\(result.stderr)")
        }
    }

    /// The whole path an operator takes: keys and enforcement set with the CLI, a running `livegate
    /// serve` picking the change up from its app cache, tokens from PyJWT.
    @Test func aRunningGatewayEnforcesWhatTheCLISet() async throws {
        let files = try await SDKAuthKeyFiles.shared.value
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            let appID = tenant.app.identifier
            let port = LiveGateBinary.freePort()
            let server = try LiveGateBinary.serve(
                port: port, databaseURL: database.connectionString, environment: ["LIVEGATE_LOOKUP_CACHE_SECONDS": "1"])
            defer { server.terminate() }
            try await CLITests.waitUntilHealthy(port: port)
            func register(_ user: String, device: String, jwt: String?) async throws -> CurlHTTPClient.Response {
                var headers = ["Content-Type": "application/json"]
                if let jwt { headers["Authorization"] = "Bearer \(jwt)" }
                return try await CurlHTTPClient.request(
                    "POST", "http://127.0.0.1:\(port)/push_token_tag", headers: headers,
                    body: Data(
                        #"{"app_id":"\#(appID)","device_id":"\#(device)","external_id":"\#(user)","tag":"game-42","push_token":"\#(SDKAuthenticationTests.token)"}"#
                            .utf8))
            }
            #expect(try await register("fan-1", device: "d1", jwt: nil).status == 201)

            let enforce = try await LiveGateBinary.run(
                ["app", "sdk-auth", appID, "--public-key", files.path("ec.pub.pem"), "--enforce"], databaseURL: database.connectionString)
            #expect(enforce.status == 0, "\(enforce.stderr)")
            // Within the lookup cache's second, the gateway refuses a registration without a token.
            let refused = try await Self.eventually { try await register("fan-2", device: "d2", jwt: nil).status == 401 }
            #expect(refused)
            let jwt = try await JWTSigner.sign(.init(key: files.path("ec.pem"), algorithm: "ES256", claims: JWTSigner.claims("fan-2")))
            #expect(try await register("fan-2", device: "d2", jwt: jwt).status == 201)
            #expect(try await register("fan-3", device: "d3", jwt: jwt).status == 403)

            let off = try await LiveGateBinary.run(["app", "sdk-auth", appID, "--off"], databaseURL: database.connectionString)
            #expect(off.status == 0, "\(off.stderr)")
            #expect(try await Self.eventually { try await register("fan-3", device: "d3", jwt: nil).status == 201 })
            let users = try await database.pool.query(
                "SELECT u.external_id FROM activity_tokens t JOIN users u ON u.id = t.user_id ORDER BY 1"
            ).map { try $0.require("external_id", as: String.self) }
            #expect(users == ["fan-1", "fan-2", "fan-3"])
        }
    }

    static func eventually(within limit: Duration = .seconds(10), _ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + limit
        repeat {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(200))
        } while ContinuousClock.now < deadline
        return false
    }
}
