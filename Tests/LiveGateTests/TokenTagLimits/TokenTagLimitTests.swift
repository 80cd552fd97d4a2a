import APNsCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import NIOConcurrencyHelpers
import TestSupport
import Testing

@Suite("Abuse limits on POST /push_token_tag: per client address and per app, per minute", .requiresPostgres)
struct TokenTagLimitTests {
    static let token = "a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1"

    static func register(_ appID: String, device: String) -> String {
        #"{"app_id":"\#(appID)","device_id":"\#(device)","tag":"game-42","push_token":"\#(token)"}"#
    }

    static func post(_ baseURL: String, _ body: String, from address: String) async throws -> CurlHTTPClient.Response {
        try await CurlHTTPClient.request(
            "POST", "\(baseURL)/push_token_tag", headers: ["Content-Type": "application/json", "X-Forwarded-For": address],
            body: Data(body.utf8))
    }

    /// Waits, if need be, until the current clock minute has `room` left: counts over real sockets and
    /// processes go by the real clock, and a minute turning mid-test would start them over.
    static func awayFromTheMinuteTurning(room: TimeInterval = 20) async throws {
        let intoMinute = Date().timeIntervalSince1970.truncatingRemainder(dividingBy: 60)
        if intoMinute > 60 - room { try await Task.sleep(for: .seconds(61 - intoMinute)) }
    }

    @Test func theNextCallFromAnAddressOverItsLimitIs429WithTheUsualHeaders() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            // Behind a trusted proxy on loopback, X-Forwarded-For names the client (ClientAddressResolver).
            let configuration = GatewayConfiguration(
                trustedProxies: [IPNetwork("127.0.0.0/8")!], tokenTagLimits: .init(perApp: 0, perAddress: 3))
            try await LiveGatewayServer.with(database: database, configuration: configuration) { baseURL in
                try await Self.awayFromTheMinuteTurning()
                // Invalid calls count too: the limit is on calls from a source, before anything else.
                let invalid = try await Self.post(baseURL, #"{"app_id":"#, from: "203.0.113.7")
                #expect(invalid.status == 400)
                #expect(invalid.headers["x-ratelimit-remaining"] == "2")
                for (device, remaining) in [("d1", "1"), ("d2", "0")] {
                    let response = try await Self.post(baseURL, Self.register(tenant.app.identifier, device: device), from: "203.0.113.7")
                    #expect(response.status == 201, "\(response.text)")
                    #expect(response.headers["x-ratelimit-limit"] == "3")
                    #expect(response.headers["x-ratelimit-remaining"] == remaining)
                    let reset = try #require(response.headers["x-ratelimit-reset"].flatMap { Int64($0) })
                    #expect(reset % 60 == 0)
                    #expect((1...61).contains(reset - Int64(Date().timeIntervalSince1970)))
                }
                let refused = try await Self.post(baseURL, Self.register(tenant.app.identifier, device: "d3"), from: "203.0.113.7")
                #expect(refused.status == 429)
                #expect(refused.headers["content-type"] == "application/json; charset=utf-8")
                #expect(refused.headers["x-ratelimit-limit"] == "3")
                #expect(refused.headers["x-ratelimit-remaining"] == "0")
                let retryAfter = try #require(refused.headers["retry-after"].flatMap { Int($0) })
                #expect((1...60).contains(retryAfter))
                #expect(refused.headers["x-ratelimit-retry-after"] == String(retryAfter))
                #expect(
                    refused.json?["message"] as? String
                        == "Rate limit exceeded: at most 3 calls to /push_token_tag per minute from one address; retry after \(retryAfter) seconds"
                )

                // Another address has its own count; an IPv6 client counts by its /64.
                #expect(try await Self.post(baseURL, Self.register(tenant.app.identifier, device: "d4"), from: "203.0.113.8").status == 201)
                for (host, expected) in [("::5", 201), ("::6", 201), ("::7", 201), ("::8", 429)] {
                    let response = try await Self.post(
                        baseURL, Self.register(tenant.app.identifier, device: "v6\(host)"), from: "2001:db8:1:2\(host)")
                    #expect(response.status == expected, "\(host)")
                }
                #expect(
                    try await Self.post(baseURL, Self.register(tenant.app.identifier, device: "d5"), from: "2001:db8:1:3::5").status == 201)
            }
            #expect(try await database.count("SELECT count(*) FROM activity_tokens") == 7, "refused calls stored nothing")
        }
    }

    /// Two gateways over one database, with one clock the test moves.
    static func twoGateways(
        perApp: Int,
        _ body: @escaping @Sendable (Tenant, TestDatabase, NIOLockedValueBox<Date>, [any TestClientProtocol]) async throws -> Void
    ) async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            let now = NIOLockedValueBox(Date(timeIntervalSince1970: 1_795_881_590))  // 10 s before a minute turns
            let clock = MessageClock(now: { now.withLockedValue { $0 } })
            let configuration = GatewayConfiguration(
                lookupCacheTimeToLive: .seconds(5), tokenTagLimits: .init(perApp: perApp, perAddress: 0))
            try await TestGateway.app(database, configuration: configuration, clock: clock).test(.router) { first in
                try await TestGateway.app(database, configuration: configuration, clock: clock).test(.router) { second in
                    try await body(tenant, database, now, [first, second])
                }
            }
        }
    }

    @Test func theAppLimitHoldsAcrossGatewaysAndCountsOnlyWhatIsStored() async throws {
        try await Self.twoGateways(perApp: 4) { tenant, database, now, gateways async throws in
            let appID = tenant.app.identifier
            // Refused before storing: not a registration, so not counted.
            let unknown = try await gateways[0].post("/push_token_tag", Self.register("no-such-app", device: "x"), key: nil)
            #expect(unknown.status == .badRequest)
            let invalid = try await gateways[0].post(
                "/push_token_tag", #"{"app_id":"\#(appID)","device_id":"x","tag":"t","push_token":"zz"}"#, key: nil)
            #expect(invalid.status == .badRequest)
            #expect(invalid.headers[HTTPField.Name("X-RateLimit-Limit")!] == nil, "counted only once the call is valid")

            // Calls to both gateways in turn: each gateway spends the blocks it leased (here of one call,
            // the limit being small), so near the limit one may refuse while the other still holds one; in
            // all, exactly the limit gets through.
            var created = 0
            for round in 0..<5 {
                for (index, gateway) in gateways.enumerated() {
                    let response = try await gateway.post("/push_token_tag", Self.register(appID, device: "d\(round)-\(index)"), key: nil)
                    #expect(response.headers[HTTPField.Name("X-RateLimit-Limit")!] == "4")
                    if response.status == .created { created += 1 } else { #expect(response.status == .tooManyRequests) }
                }
            }
            #expect(created == 4)
            for gateway in gateways {
                let refused = try await gateway.post("/push_token_tag", Self.register(appID, device: "late"), key: nil)
                #expect(refused.status == .tooManyRequests)
                #expect(refused.headers[HTTPField.Name("X-RateLimit-Remaining")!] == "0")
                #expect(refused.headers[HTTPField.Name("X-RateLimit-Reset")!] == "1795881600")
                #expect(refused.headers[.retryAfter] == "10")
                #expect(
                    try refused.json["message"]?.stringValue
                        == "Rate limit exceeded: this app may register at most 4 push tokens per minute; retry after 10 seconds")
            }
            #expect(try await database.count("SELECT count(*) FROM activity_tokens") == 4)
            #expect(try await database.count("SELECT sum(granted) FROM token_tag_rate_windows") == 4)

            // The next minute is a fresh window.
            now.withLockedValue { $0 = $0.addingTimeInterval(10) }
            let next = try await gateways[1].post("/push_token_tag", Self.register(appID, device: "late"), key: nil)
            #expect(next.status == .created, "\(next.text)")
            #expect(next.headers[HTTPField.Name("X-RateLimit-Reset")!] == "1795881660")
            #expect(try await database.count("SELECT count(*) FROM activity_tokens") == 5)
        }
    }

    @Test func failedSDKAuthenticationDoesNotSpendTheAppsQuota() async throws {
        let files = try await SDKAuthKeyFiles.shared.value
        try await Self.twoGateways(perApp: 1) { tenant, database, now, gateways async throws in
            let key = try SDKAuthPublicKey(pem: try files.text("ec.pub.pem"))
            _ = try await database.tenancy.setSDKAuthentication(appIdentifier: tenant.app.identifier, keys: [key], enforced: true)
            let body =
                #"{"app_id":"\#(tenant.app.identifier)","device_id":"d1","external_id":"fan-7","tag":"t","push_token":"\#(Self.token)"}"#
            for _ in 0..<3 {
                #expect(try await gateways[0].post("/push_token_tag", body, key: "forged").status == .unauthorized)
            }
            // Signed for the gateways' pinned time.
            let claims = JWTSigner.claims("fan-7", now: now.withLockedValue { $0 })
            let jwt = try await JWTSigner.sign(.init(key: files.path("ec.pem"), algorithm: "ES256", claims: claims))
            #expect(try await gateways[0].post("/push_token_tag", body, key: jwt).status == .created)
            #expect(try await gateways[0].post("/push_token_tag", body, key: jwt).status == .tooManyRequests)
        }
    }

    @Test func zeroTurnsBothLimitsOff() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            let configuration = GatewayConfiguration(trustedProxies: [IPNetwork("127.0.0.0/8")!], tokenTagLimits: .unlimited)
            try await LiveGatewayServer.with(database: database, configuration: configuration) { baseURL in
                for index in 0..<5 {
                    let response = try await Self.post(
                        baseURL, Self.register(tenant.app.identifier, device: "d\(index)"), from: "203.0.113.7")
                    #expect(response.status == 201)
                    #expect(response.headers["x-ratelimit-limit"] == nil)
                }
            }
        }
    }

    @Test func theDefaultsApplyAndTheTighterLimitIsShown() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await LiveGatewayServer.with(database: database) { baseURL in
                let response = try await Self.post(baseURL, Self.register(tenant.app.identifier, device: "d1"), from: "203.0.113.7")
                #expect(response.status == 201)
                // 20,000 from this address, 600,000 for the app: the address is nearer its limit.
                #expect(response.headers["x-ratelimit-limit"] == "20000")
                #expect(response.headers["x-ratelimit-remaining"] == "19999")
            }
        }
        #expect(TokenTagLimits.Settings() == .init(perApp: 600_000, perAddress: 20_000))
    }

    @Test func livegateServeReadsTheLimitsFromTheEnvironment() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            let port = LiveGateBinary.freePort()
            let server = try LiveGateBinary.serve(
                port: port, databaseURL: database.connectionString,
                environment: ["LIVEGATE_TOKEN_TAG_RATE_PER_ADDRESS": "2", "LIVEGATE_TOKEN_TAG_RATE_PER_APP": "0"])
            defer { server.terminate() }
            try await CLITests.waitUntilHealthy(port: port)
            try await Self.awayFromTheMinuteTurning()
            var statuses: [Int] = []
            for index in 0..<3 {
                statuses.append(
                    try await Self.post(
                        "http://127.0.0.1:\(port)", Self.register(tenant.app.identifier, device: "d\(index)"), from: "unused"
                    )
                    .status)
            }
            #expect(statuses == [201, 201, 429])

            let bad = try await LiveGateBinary.run(
                ["serve", "--port", "0"], databaseURL: database.connectionString, environment: ["LIVEGATE_TOKEN_TAG_RATE_PER_APP": "-1"])
            #expect(bad.status != 0)
            #expect(bad.stderr.contains("LIVEGATE_TOKEN_TAG_RATE_PER_APP must be a whole number from 0 to 100000000"), "\(bad.stderr)")
        }
    }
}

@Suite("Housekeeping of registration windows", .requiresPostgres)
struct TokenTagWindowHousekeepingTests {
    @Test func pastMinutesAreDeletedAfterAnHour() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            let store = PostgresQuotaStore(pool: database.pool, windows: .appMinutes)
            let now = Date()
            for minutesAgo in [0, 30, 120] {
                _ = try await store.lease(
                    workspaceID: tenant.app.id, window: now.addingTimeInterval(Double(-minutesAgo * 60)), wanted: 5, limit: 100)
            }
            let report = try await Housekeeping(pool: database.pool).run(tokenLifetime: .seconds(43_200), retention: .seconds(216_000))
            #expect(report.tokenTagWindows == 1)
            #expect(try await database.count("SELECT count(*) FROM token_tag_rate_windows") == 2)
        }
    }
}
