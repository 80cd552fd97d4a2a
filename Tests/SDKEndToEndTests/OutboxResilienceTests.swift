import APNsCore
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

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Answers the first `count` requests itself with 429 and `Retry-After`, then passes them on: a gateway
/// over its limit, as the SDK meets it.
final class ThrottlingTransport: LiveGateTransport, @unchecked Sendable {
    let base = URLSessionTransport()
    let retryAfterSeconds: Int
    private let lock = NSLock()
    private var throttled: Int
    private(set) var times: [ContinuousClock.Instant] = []

    init(throttle count: Int, retryAfterSeconds: Int) {
        self.throttled = count
        self.retryAfterSeconds = retryAfterSeconds
    }

    func perform(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let throttle = lock.withLock {
            times.append(.now)
            guard throttled > 0 else { return false }
            throttled -= 1
            return true
        }
        guard throttle else { return try await base.perform(request) }
        let response = HTTPURLResponse(
            url: request.url!, statusCode: 429, httpVersion: "HTTP/1.1", headerFields: ["Retry-After": String(retryAfterSeconds)])!
        return (Data(#"{"message":"Rate limit exceeded"}"#.utf8), response)
    }
}

@Suite("LiveGateKit's outbox: outages, limits and relaunches", .heavy, .requiresPostgres, .serialized)
struct OutboxResilienceTests {
    @Test func reportsMadeDuringAFiveSecondOutageAreAllDeliveredAfterItAndNoneTwice() async throws {
        try await SDKHarness.with { harness in
            let liveGate = try harness.sdk()
            await liveGate.liveActivities.reportUpdateToken(token(0x21), tag: "order-1")
            await liveGate.flush()
            harness.gateway.stop()

            let outageStarted = ContinuousClock.now
            for (tag, byte) in [("order-2", UInt8(0x22)), ("order-3", 0x23), ("order-4", 0x24)] {
                await liveGate.liveActivities.reportUpdateToken(token(byte), tag: tag)
            }
            await liveGate.liveActivities.reportState(.active, tag: "order-2")
            // A newer token for order-3 replaces the waiting one: only the newest is sent.
            await liveGate.liveActivities.reportUpdateToken(token(0x33), tag: "order-3")
            try await Task.sleep(until: outageStarted + .seconds(5))
            let back = try await GatewayProcess.start(environment: harness.environment, port: harness.port)
            defer { back.process.stop() }

            await liveGate.flush()
            for (tag, expected) in [("order-2", hex(0x22)), ("order-3", hex(0x33)), ("order-4", hex(0x24))] {
                #expect(try await harness.updateTokens(tag: tag) == [liveGate.deviceID: expected], "\(tag)")
            }
            #expect(try await harness.database.count("SELECT count(*) FROM activity_device_states WHERE activity_id = 'order-2'") == 1)
            // The restarted gateway (its counters start at zero) answered each of the four waiting reports
            // once. Hummingbird counts a request after its answer is written: wait for the counts, then
            // check that none is higher.
            let after = try await Self.scrape(
                harness.base,
                until: { scrape in
                    Self.created(scrape, route: "/push_token_tag") >= 3 && Self.created(scrape, route: "/live_activity/device_state") >= 1
                })
            #expect(Self.created(after, route: "/push_token_tag") == 3)
            #expect(Self.created(after, route: "/live_activity/device_state") == 1)
            await liveGate.shutdown()
        }
    }

    @Test func a429WaitsForItsRetryAfterThenIsSentOnce() async throws {
        try await SDKHarness.with { harness in
            let transport = ThrottlingTransport(throttle: 1, retryAfterSeconds: 2)
            let liveGate = try harness.sdk(transport: transport)
            await liveGate.liveActivities.reportUpdateToken(token(0x41), tag: "order-9")
            await liveGate.flush()
            let times = transport.times
            #expect(times.count == 2)
            if times.count == 2 { #expect(times[1] - times[0] >= .seconds(2)) }
            #expect(try await harness.updateTokens(tag: "order-9") == [liveGate.deviceID: hex(0x41)])
            var errors = liveGate.errors.makeAsyncIterator()
            let first = await errors.next()
            #expect(first?.code == .gatewayUnavailable && first?.status == 429)
            await liveGate.shutdown()
        }
    }

    /// The gateway's own limit: one SDK call a minute from this address. The second report is refused
    /// with 429 and the seconds to the next minute; the SDK waits them out and sends it then, once.
    @Test func theGatewaysOwn429IsWaitedOutAndTheReportSentOnce() async throws {
        try await SDKHarness.with { harness in
            var environment = harness.environment
            environment["LIVEGATE_TOKEN_TAG_RATE_PER_ADDRESS"] = "1"
            let limited = try await GatewayProcess.start(environment: environment)
            defer { limited.process.stop() }
            let liveGate = try harness.sdk(url: "http://127.0.0.1:\(limited.port)")
            await liveGate.liveActivities.reportUpdateToken(token(0x44), tag: "order-12")
            await liveGate.liveActivities.reportUpdateToken(token(0x45), tag: "order-13")
            await liveGate.flush()
            var errors = liveGate.errors.makeAsyncIterator()
            let limitedAnswer = await errors.next()
            #expect(limitedAnswer?.code == .gatewayUnavailable && limitedAnswer?.status == 429, "\(String(describing: limitedAnswer))")
            #expect(try await harness.updateTokens(tag: "order-13") == [liveGate.deviceID: hex(0x45)])
            let scrape = try await Self.scrape("http://127.0.0.1:\(limited.port)") { Self.created($0, route: "/push_token_tag") >= 2 }
            #expect(Self.created(scrape, route: "/push_token_tag") == 2)
            await liveGate.shutdown()
        }
    }

    @Test func aReportTheGatewayRefusesForGoodIsDroppedWithAnError() async throws {
        try await SDKHarness.with { harness in
            let liveGate = try harness.sdk()
            // A tag over the gateway's 256 characters: a 400, never worth sending again.
            await liveGate.liveActivities.reportUpdateToken(token(0x42), tag: String(repeating: "t", count: 300))
            await liveGate.liveActivities.reportUpdateToken(token(0x43), tag: "order-10")
            await liveGate.flush()
            var errors = liveGate.errors.makeAsyncIterator()
            let refused = await errors.next()
            #expect(refused?.code == .reportRefused)
            #expect(refused?.status == 400)
            #expect(refused?.message.contains("tag must be at most 256 characters") == true, "\(String(describing: refused))")
            let mentions = refused?.message.components(separatedBy: "tag must be at most 256 characters").count ?? 0
            #expect(mentions == 2, "said once: \(String(describing: refused))")
            #expect(try await harness.updateTokens(tag: "order-10") == [liveGate.deviceID: hex(0x43)])
            await liveGate.shutdown()
        }
    }

    @Test func aRelaunchSendsWhatTheLastRunLeftOnDiskUnderTheSameDevice() async throws {
        try await SDKHarness.with { harness in
            // The first run cannot reach any gateway.
            let first = try harness.sdk(url: "http://127.0.0.1:\(LiveGateBinary.freePort())")
            await first.changeUser(externalID: "fan-3")
            await first.liveActivities.reportUpdateToken(token(0x51), tag: "ride-1")
            await first.liveActivities.reportState(.active, tag: "ride-1")
            await first.shutdown()

            let second = try harness.sdk()
            #expect(second.deviceID == first.deviceID)
            await second.flush()
            #expect(try await harness.updateTokens(tag: "ride-1") == [second.deviceID: hex(0x51)])
            let user = try await harness.database.pool.query(
                """
                SELECT u.external_id FROM activity_tokens t JOIN users u ON u.id = t.user_id
                WHERE t.activity_id = 'ride-1'
                """)
            #expect(try user.first?.require("external_id", as: String.self) == "fan-3")
            #expect(try await harness.database.count("SELECT count(*) FROM activity_device_states WHERE activity_id = 'ride-1'") == 1)
            await second.shutdown()
        }
    }

    /// The gateway's metrics, once `ready` holds for them (at most 30 s; then the last scrape).
    static func scrape(_ base: String, until ready: (String) -> Bool) async throws -> String {
        var scrape = ""
        try? await GatewayProcess.waitUntil("the metrics count what was answered") {
            scrape = try await CurlHTTPClient.request("GET", "\(base)/metrics").text
            return ready(scrape)
        }
        return scrape
    }

    /// `livegate_http_requests_total` for a route's 201s in a scrape.
    static func created(_ scrape: String, route: String) -> Int {
        scrape.split(separator: "\n").filter {
            $0.hasPrefix("livegate_http_requests_total{") && $0.contains(#"route="\#(route)""#) && $0.contains(#"status="201""#)
                && $0.contains(#"method="POST""#)
        }.compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }.reduce(0) { $0 + Int($1) }
    }
}
