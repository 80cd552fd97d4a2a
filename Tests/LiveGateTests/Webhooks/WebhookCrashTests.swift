import Foundation
import LiveGateDomain
import TestSupport
import Testing

/// `livegate serve` killed mid-batch: another gateway takes the endpoint over when its lease runs out
/// and sends on from its position, so nothing is lost (the batch in flight may come twice).
@Suite("Webhooks survive a crash", .heavy, .requiresPostgres)
struct WebhookCrashTests {
    @Test func aGatewayKilledMidBatchLosesNothing() async throws {
        try await WebhookHarness.with { harness in
            try await WebhookReceiver.with { receiver, url in
                receiver.setDelay(.milliseconds(300))
                _ = try await harness.endpoint(url)
                var ids: [String] = []
                for round in 0..<6 { ids += try await harness.insert(500, from: round * 500) }
                let environment = LiveGateBinary.environment(
                    databaseURL: harness.database.connectionString,
                    [
                        "LIVEGATE_DELIVERY": "off", "LIVEGATE_WEBHOOK_POLL_MILLISECONDS": "100",
                        "LIVEGATE_WEBHOOK_TIMEOUT_SECONDS": "1",
                    ])
                let first = try await GatewayProcess.start(environment: environment)
                try await GatewayProcess.waitUntil("a batch arrived") { receiver.deliveredIDs.count >= 500 }
                first.process.stop(signal: SIGKILL)
                #expect(Set(receiver.deliveredIDs).count < ids.count, "killed before the end")

                let second = try await GatewayProcess.start(environment: environment)
                defer { second.process.stop() }
                try await GatewayProcess.waitUntil("every event arrived", timeout: .seconds(60)) {
                    Set(receiver.deliveredIDs).count >= ids.count
                }
                var seen = Set<String>()
                let firstArrivals = receiver.deliveredIDs.filter { seen.insert($0).inserted }
                #expect(firstArrivals == ids, "in order, none skipped")
                #expect(receiver.mostInFlight == 1)
            }
        }
    }
}
