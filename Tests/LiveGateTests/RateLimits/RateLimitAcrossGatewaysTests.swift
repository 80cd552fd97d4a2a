import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import TestSupport
import Testing

@Suite("Rate limits across gateways sharing one database", .heavy, .requiresPostgres)
struct RateLimitAcrossGatewaysTests {
    static let limit = 200
    /// docs/rate-limits.md: at most (gateways − 1) × 1.5 × min(250, limit / 16) calls of a window are refused early.
    static let earlyRefusalBound = (2 - 1) * (3 * min(250, limit / 16) + 1) / 2

    /// Two `livegate serve` processes hammered at once: together they never accept more than the
    /// limit, refuse at most the documented few early, and record exactly what they accepted.
    @Test func twoGatewaysTogetherStayWithinTheLimit() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant(rateLimitPerHour: Self.limit)
            let environment = LiveGateBinary.environment(
                databaseURL: database.connectionString, ["LIVEGATE_DELIVERY": "off", "LIVEGATE_DB_POOL_SIZE": "4"])
            let first = try await DeliveryCrashTests.startGateway(environment: environment)
            defer { first.process.stop() }
            let second = try await DeliveryCrashTests.startGateway(environment: environment)
            defer { second.process.stop() }

            let body = Data(#"{"app_id":"\#(tenant.app.identifier)","activity_id":"game-42","content_state":{"n":1}}"#.utf8)
            let calls = 3 * Self.limit
            let statuses = try await withThrowingTaskGroup(of: [Int].self) { group in
                // 16 callers, alternating gateways.
                for caller in 0..<16 {
                    group.addTask {
                        var statuses: [Int] = []
                        for call in stride(from: caller, to: calls, by: 16) {
                            let port = call % 2 == 0 ? first.port : second.port
                            let response = try await CurlHTTPClient.request(
                                "POST", "http://127.0.0.1:\(port)/messages/live_activity/update",
                                headers: ["Authorization": "Bearer \(tenant.secret)", "Content-Type": "application/json"], body: body)
                            #expect(response.headers["x-ratelimit-limit"] == String(Self.limit))
                            statuses.append(response.status)
                        }
                        return statuses
                    }
                }
                return try await group.reduce(into: [Int]()) { $0 += $1 }
            }
            let accepted = statuses.filter { $0 == 201 }.count
            #expect(statuses.count == calls)
            #expect(statuses.allSatisfy { $0 == 201 || $0 == 429 })
            #expect(accepted <= Self.limit, "never more than the limit")
            #expect(accepted >= Self.limit - Self.earlyRefusalBound, "at most the documented few refused early")
            #expect(try await database.count("SELECT count(*) FROM dispatches") == accepted, "a refused call records nothing")
            #expect(try await database.count("SELECT max(granted) FROM rate_limit_windows") <= Self.limit)
        }
    }

    /// A gateway that stops gracefully gives back the quota it leased but did not spend.
    @Test func aStoppingGatewayReturnsItsUnspentQuota() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant(rateLimitPerHour: 10_000)
            let gateway = try await DeliveryCrashTests.startGateway(
                environment: LiveGateBinary.environment(databaseURL: database.connectionString, ["LIVEGATE_DELIVERY": "off"]))
            let response = try await CurlHTTPClient.request(
                "POST", "http://127.0.0.1:\(gateway.port)/messages/live_activity/update",
                headers: ["Authorization": "Bearer \(tenant.secret)", "Content-Type": "application/json"],
                body: Data(#"{"app_id":"\#(tenant.app.identifier)","activity_id":"game-42","content_state":{"n":1}}"#.utf8))
            #expect(response.status == 201)
            #expect(try await database.count("SELECT granted FROM rate_limit_windows") == 250, "a block was leased")
            gateway.process.stop()
            #expect(try await database.count("SELECT granted FROM rate_limit_windows") == 1, "all but the one spent came back")
        }
    }
}
