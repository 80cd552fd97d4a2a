import APNsClient
import Foundation
import TestSupport
import Testing

/// `livegate serve` delivering to `livegate apns-sim`, which throttles one device through its control
/// API (429 TooManyRequests with `retry-after`): only that device waits.
@Suite("livegate serve with APNs throttling one device", .heavy, .requiresPostgres)
struct ThrottledServeTests {
    static let throttled = token(numbered: 7)
    static let devices = (0..<5).map { token(numbered: $0 + 5) }

    @Test func a429ForOneDeviceSlowsThatDeviceOnly() async throws {
        try await ServedFanOut.run(
            devices: Self.devices, simulatorOptions: [], environment: [:],
            prepare: { control in
                let set = try await control.request(
                    "PUT", "/_sim/tokens/\(Self.throttled)", body: #"{"status":429,"times":1,"retry_after":3}"#)
                #expect(set.status == 200 && set.text.contains(#""retry_after":"3""#), "\(set.text)")
            }
        ) { fanOut in
            let (counts, text) = try await fanOut.waitUntilDone(timeout: .seconds(60))
            #expect(counts["sent"] as? Int == Self.devices.count, "\(text)")
            #expect(counts["failed"] as? Int == 0 && counts["retried"] as? Int == 1, "\(text)")

            let pushes = try await fanOut.control.pushes()
            let format = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
            let arrivals = try pushes.map { push in
                (try #require(push["device_token"] as? String), try format.parse(try #require(push["received_at"] as? String)))
            }
            #expect(arrivals.count == Self.devices.count)
            let retried = try #require(arrivals.first { $0.0 == Self.throttled }?.1)
            let others = arrivals.filter { $0.0 != Self.throttled }.map(\.1)
            #expect(others.count == Self.devices.count - 1)
            #expect(others.allSatisfy { $0 < retried }, "the other devices did not wait for the throttled one")
            // Its first try went with theirs; its second waited out retry-after's 3 s (less a margin for
            // answers of one batch read a moment apart).
            #expect(retried.timeIntervalSince(try #require(others.min())) >= 2, "\(arrivals)")

            let after = try await PrometheusScrape.scrape("\(fanOut.base)/metrics")
            #expect(after.delta("livegate_apns_throttled_total", ["target": "device"], since: fanOut.metricsBefore) == 1)
            let log = try await CurlHTTPClient.request("GET", fanOut.base + "/message_activity_log", headers: fanOut.auth)
            let entries = try #require(log.json?["entries"] as? [[String: Any]], "\(log.text)")
            #expect(entries.count == 1, "\(log.text)")
            #expect((entries.first?["message"] as? String)?.hasPrefix("APNs throttled the device") == true, "\(log.text)")
        }
    }
}
