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

@Suite("The livegate CLI, as scripts use it", .requiresPostgres)
struct CLITests {
    static let allPermissions =
        "messages.live_activity.update,messages.live_activity.start,message_activity_log.read,live_activity.channels.manage"

    @Test func roundTripFromWorkspaceToAnAuthenticatedRequest() async throws {
        try await TestDatabase.with(migrated: false) { database in
            let url = database.connectionString
            let migrate = try await LiveGateBinary.run(["migrate"], databaseURL: url)
            #expect(migrate.status == 0, "\(migrate.stderr)")
            #expect(migrate.lastLine.hasPrefix("applied migrations: 1"))
            #expect(try await LiveGateBinary.run(["migrate"], databaseURL: url).lastLine == "schema is up to date")

            let workspace = try await LiveGateBinary.run(
                ["workspace", "create", "--name", "Scores Inc", "--rate-limit", "1000"], databaseURL: url)
            #expect(workspace.status == 0, "\(workspace.stderr)")
            let workspaceID = try #require(UUID(uuidString: workspace.lastLine))
            let stored = try #require(try await database.tenancy.workspace(id: workspaceID))
            #expect(stored.name == "Scores Inc")
            #expect(stored.rateLimitPerHour == 1000)

            let keyFile = FileManager.default.temporaryDirectory.appendingPathComponent("apns-\(UUID()).p8")
            try Self.demoPrivateKeyPEM.write(to: keyFile, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: keyFile) }
            let app = try await LiveGateBinary.run(
                [
                    "app", "create", "--workspace", workspace.lastLine, "--name", "Scores", "--bundle-id", "com.example.scores",
                    "--team-id", "TEAM123456", "--key-id", "KEY1234567", "--key-file", keyFile.path, "--apns-endpoint", "sandbox",
                ], databaseURL: url)
            #expect(app.status == 0, "\(app.stderr)")
            let storedApp = try #require(try await database.tenancy.app(identifier: app.lastLine))
            #expect(storedApp.workspaceID == workspaceID)
            #expect(storedApp.bundleID == "com.example.scores")
            #expect(storedApp.endpoint == .sandbox)
            #expect(storedApp.credentials?.teamID == "TEAM123456")
            #expect(storedApp.credentials?.keyID == "KEY1234567")
            #expect(storedApp.credentials?.privateKeyPEM == Self.demoPrivateKeyPEM)
            // The private key is not echoed back.
            #expect(!app.stdout.contains("PRIVATE KEY"))

            let key = try await LiveGateBinary.run(
                [
                    "key", "create", "--workspace", workspace.lastLine, "--name", "backend", "--permissions",
                    "messages.live_activity.update",
                    "--allow-ip", "127.0.0.1", "--allow-ip", "::1",
                ], databaseURL: url)
            #expect(key.status == 0, "\(key.stderr)")
            let secret = key.lastLine
            #expect(secret.hasPrefix("lg_"))
            #expect(!key.stderr.contains(secret))

            let list = try await LiveGateBinary.run(["key", "list", "--workspace", workspace.lastLine], databaseURL: url)
            #expect(list.status == 0)
            #expect(list.stdout.contains("backend"))
            #expect(list.stdout.contains("127.0.0.1/32,::1/128"))
            #expect(list.stdout.contains("active"))
            #expect(!list.stdout.contains(secret))
            let keyID = try #require(list.stdout.split(separator: "\n").dropFirst().first?.split(separator: "\t").first.map(String.init))

            // The key authenticates against a real `livegate serve`.
            let port = LiveGateBinary.freePort()
            // Keys are cached in memory for LIVEGATE_LOOKUP_CACHE_SECONDS; a revocation bites within that.
            let server = try LiveGateBinary.serve(
                port: port, databaseURL: url, environment: ["LIVEGATE_LOOKUP_CACHE_SECONDS": "1"])
            defer { server.terminate() }
            try await Self.waitUntilHealthy(port: port)
            let current = try await CurlHTTPClient.request(
                "GET", "http://127.0.0.1:\(port)/api_keys/current", headers: ["Authorization": "Bearer \(secret)"])
            #expect(current.status == 200)
            #expect(current.json?["workspace_id"] as? String == workspaceID.uuidString.lowercased())
            #expect(current.json?["permissions"] as? [String] == ["messages.live_activity.update"])

            let revoke = try await LiveGateBinary.run(["key", "revoke", keyID], databaseURL: url)
            #expect(revoke.status == 0, "\(revoke.stderr)")
            var afterRevoke = 0
            let deadline = ContinuousClock.now + .seconds(5)
            repeat {
                afterRevoke = try await CurlHTTPClient.request(
                    "GET", "http://127.0.0.1:\(port)/api_keys/current", headers: ["Authorization": "Bearer \(secret)"]
                ).status
                if afterRevoke == 401 { break }
                try await Task.sleep(for: .milliseconds(200))
            } while ContinuousClock.now < deadline
            #expect(afterRevoke == 401)
            #expect(
                try await LiveGateBinary.run(["key", "list", "--workspace", workspace.lastLine], databaseURL: url).stdout.contains(
                    "revoked"))

            // SIGTERM drains and exits cleanly.
            server.terminate()
            server.waitUntilExit()
            #expect(server.terminationStatus == 0)
        }
    }

    @Test func appWithoutCredentialsAndCustomEndpoint() async throws {
        try await TestDatabase.with { database in
            let workspace = try await database.makeWorkspace()
            let app = try await LiveGateBinary.run(
                [
                    "app", "create", "--workspace", workspace.id.uuidString, "--name", "Sim", "--bundle-id", "com.example.sim",
                    "--apns-endpoint", "http://127.0.0.1:2197", "--app-id", "my-braze-app-id",
                ], databaseURL: database.connectionString)
            #expect(app.status == 0, "\(app.stderr)")
            #expect(app.lastLine == "my-braze-app-id")
            let stored = try #require(try await database.tenancy.app(identifier: "my-braze-app-id"))
            #expect(stored.credentials == nil)
            #expect(stored.endpoint.isCleartext)
        }
    }

    @Test func channelsEndpointIsSetAtCreationAndChangedLater() async throws {
        try await TestDatabase.with { database in
            let workspace = try await database.makeWorkspace()
            let url = database.connectionString
            let app = try await LiveGateBinary.run(
                [
                    "app", "create", "--workspace", workspace.id.uuidString, "--name", "Sim", "--bundle-id", "com.example.sim",
                    "--apns-endpoint", "sandbox", "--apns-channels-endpoint", "https://127.0.0.1:2199",
                ], databaseURL: url)
            #expect(app.status == 0, "\(app.stderr)")
            let stored = try #require(try await database.tenancy.app(identifier: app.lastLine))
            #expect(stored.channelsEndpointURL == "https://127.0.0.1:2199")

            let moved = try await LiveGateBinary.run(
                ["app", "set-channels-endpoint", app.lastLine, "http://127.0.0.1:9000"], databaseURL: url)
            #expect(moved.status == 0, "\(moved.stderr)")
            #expect(moved.stdout.contains("manages its broadcast channels at http://127.0.0.1:9000"))
            let reset = try await LiveGateBinary.run(["app", "set-channels-endpoint", app.lastLine, "default"], databaseURL: url)
            #expect(reset.stdout.contains("at https://api-manage-broadcast.sandbox.push.apple.com:2195"), "\(reset.stderr)")
            #expect(try await database.tenancy.app(identifier: app.lastLine)?.channelsEndpointURL == nil)

            let bad = try await LiveGateBinary.run(["app", "set-channels-endpoint", app.lastLine, "ftp://x"], databaseURL: url)
            #expect(bad.status != 0)
            #expect(bad.stderr.contains("the channels endpoint must be an http:// or https:// URL"))
            let unknown = try await LiveGateBinary.run(["app", "set-channels-endpoint", "nope", "default"], databaseURL: url)
            #expect(unknown.status != 0)
            #expect(unknown.stderr.contains("no app has app_id 'nope'"))
        }
    }

    @Test func setRateLimitChangesTheWorkspace() async throws {
        try await TestDatabase.with { database in
            let workspace = try await database.makeWorkspace()
            let result = try await LiveGateBinary.run(
                ["workspace", "set-rate-limit", workspace.id.uuidString, "77"], databaseURL: database.connectionString)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try await database.tenancy.workspace(id: workspace.id)?.rateLimitPerHour == 77)
            let usersTrack = try await LiveGateBinary.run(
                ["workspace", "set-rate-limit", workspace.id.uuidString, "88", "--users-track"], databaseURL: database.connectionString)
            #expect(usersTrack.status == 0, "\(usersTrack.stderr)")
            let changed = try await database.tenancy.workspace(id: workspace.id)
            #expect(changed?.usersTrackRateLimitPerHour == 88)
            #expect(changed?.rateLimitPerHour == 77)
        }
    }

    @Test(arguments: [
        (
            ["key", "create", "--workspace", "WS", "--name", "k", "--permissions", "messages.everything"],
            "unknown permission 'messages.everything'"
        ),
        (
            [
                "key", "create", "--workspace", "WS", "--name", "k", "--permissions", "message_activity_log.read", "--allow-ip",
                "10.0.0.0/40",
            ], "is not an IP address or CIDR"
        ),
        (
            ["app", "create", "--workspace", "WS", "--name", "a", "--bundle-id", "b", "--apns-endpoint", "ftp://x"],
            "--apns-endpoint must be"
        ),
        (
            ["app", "create", "--workspace", "WS", "--name", "a", "--bundle-id", "b", "--apns-endpoint", "sandbox", "--team-id", "T"],
            "go together"
        ),
        (["workspace", "create", "--name", "w", "--rate-limit", "0"], "--rate-limit must be at least 1"),
        (["key", "list", "--workspace", "not-a-uuid"], "not-a-uuid"),
    ])
    func badArgumentsAreRefusedWithAClearMessage(arguments: [String], expected: String) async throws {
        try await TestDatabase.with { database in
            let workspace = try await database.makeWorkspace()
            let result = try await LiveGateBinary.run(
                arguments.map { $0 == "WS" ? workspace.id.uuidString : $0 }, databaseURL: database.connectionString)
            #expect(result.status != 0)
            #expect(result.stderr.contains(expected), "\(result.stderr)")
            #expect(try await database.apiKeys.list(workspaceID: workspace.id).isEmpty)
        }
    }

    @Test func unknownWorkspaceIsAClearError() async throws {
        try await TestDatabase.with { database in
            let result = try await LiveGateBinary.run(
                ["key", "create", "--workspace", UUID().uuidString, "--name", "k", "--permissions", "message_activity_log.read"],
                databaseURL: database.connectionString)
            #expect(result.status != 0)
            #expect(result.stderr.contains("no such workspace"), "\(result.stderr)")
        }
    }

    @Test func missingDatabaseURLIsAClearError() async throws {
        let result = try await LiveGateBinary.run(["migrate"], databaseURL: "")
        #expect(result.status != 0)
        #expect(result.stderr.contains("DATABASE_URL is not set"))
    }

    static func waitUntilHealthy(port: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if let response = try? await CurlHTTPClient.request("GET", "http://127.0.0.1:\(port)/healthz", timeoutSeconds: 2),
                response.status == 200
            {
                return
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw CurlHTTPClient.Failure(description: "livegate serve did not become healthy on port \(port)")
    }

    /// A throwaway P-256 key in PKCS#8 PEM, the shape of Apple's .p8 files.
    static let demoPrivateKeyPEM = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgRqnFxYLYRURtcvoC
        keLgLvBtftp0iUOm7EP+kBpxUVuhRANCAATblWk1+91atnNr+OwSEDelswItTWrR
        OLlDD8lPH6gOzYk24MqBsfj2eJACNEiyl65SRDqG1qFH/b4BTTQY13Ea
        -----END PRIVATE KEY-----

        """
}
