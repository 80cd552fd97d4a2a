import APNsClient
import APNsCore
import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import TestSupport
import Testing

/// `livegate serve` delivering a fan-out to `livegate apns-sim --tls --latency-ms`, two processes over
/// real sockets, while a script lowers the simulator's stream limit through `PUT /_sim/settings`, as
/// APNs may lower SETTINGS_MAX_CONCURRENT_STREAMS on open connections (down to 1 after some errors).
@Suite("livegate serve while APNs lowers its stream limit", .heavy, .requiresPostgres)
struct StreamLimitServeTests {
    static let devices = (0..<600).map { token(numbered: $0) }

    /// 600 devices over 2 connections of 100 streams. The first round's answers wait 2.5 s (within the
    /// gateway's 5 s APNs timeout); while they do, the limit drops to 5, with answers after 500 ms (the
    /// gateway's queued pushes then wait for a stream longer than the timeout, which waiting does not
    /// use), later to 1 with 20 ms answers (so that the test ends): the dispatch is
    /// done with every device sent once, nothing failed or retried, and once the gateway acknowledged
    /// each lower limit it kept to it.
    @Test func aFanOutThroughALoweredStreamLimitFailsNothingAndLosesNothing() async throws {
        // 2 connections × 500 streams (the default): 1,000 pushes in flight, derived.
        try await ServedFanOut.run(
            devices: Self.devices, simulatorOptions: ["--latency-ms", "2500", "--max-streams", "100"],
            environment: ["LIVEGATE_APNS_CONNECTIONS": "2", "LIVEGATE_APNS_TIMEOUT_SECONDS": "5"]
        ) { fanOut in
            try await Self.lowerTheLimitAndCheck(fanOut)
        }
    }

    /// The gateway's connections: those that carried more streams at once than the lowest limit so far
    /// (nghttp's, the probe's and the control client's carry one at a time).
    static func gatewayConnections(_ control: SimulatorControlClient) async throws -> [[String: Any]] {
        try await SimulatorProcess.connections(control).filter { ($0["most_streams_ever"] as? Int ?? 0) > 5 }
    }

    /// Lowers the limit and waits until every gateway connection has acknowledged it.
    static func lower(_ body: String, to limit: Int, control: SimulatorControlClient) async throws {
        let set = try await control.request("PUT", "/_sim/settings", body: body)
        #expect(set.status == 200, "\(set.text)")
        try await DeliveryCrashTests.waitUntil("the gateway acknowledged \(limit) streams", timeout: .seconds(60)) {
            let connections = try await gatewayConnections(control)
            return !connections.isEmpty && connections.allSatisfy { $0["acknowledged_max_streams"] as? Int == limit }
        }
    }

    /// Lowers the limit to 5, then to 1, while the fan-out goes on, and checks what the gateway did.
    static func lowerTheLimitAndCheck(_ fanOut: ServedFanOut) async throws {
        let control = fanOut.control
        try await DeliveryCrashTests.waitUntil("the fan-out is under way", timeout: .seconds(60)) {
            try await control.pushes().count >= 100
        }
        try await lower(#"{"max_streams":5,"latency_ms":500}"#, to: 5, control: control)
        try await DeliveryCrashTests.waitUntil("more pushes went out 5 at a time", timeout: .seconds(60)) {
            try await control.pushes().count >= 300
        }
        try await lower(#"{"max_streams":1,"latency_ms":20}"#, to: 1, control: control)
        let leftAtOne = devices.count - (try await control.pushes().count)

        let (counts, text) = try await fanOut.waitUntilDone(timeout: .seconds(120))
        #expect(counts["sent"] as? Int == devices.count, "\(text)")
        #expect(counts["failed"] as? Int == 0 && counts["removed"] as? Int == 0, "\(text)")
        #expect(counts["retried"] as? Int == 0, "waiting for a stream is not a failed try: \(text)")

        // Every device has the update exactly once.
        let pushes = try await control.pushes()
        let copies = Dictionary(grouping: pushes) { $0["device_token"] as? String ?? "" }
        #expect(Set(copies.keys) == Set(devices))
        #expect(copies.values.allSatisfy { $0.count == 1 }, "\(copies.filter { $0.value.count > 1 }.keys.prefix(3))")
        #expect(pushes.count == devices.count)

        // Once it acknowledged 1, the gateway never had two streams open on a connection, and it
        // did send on them after that (more than a few pushes were left).
        #expect(leftAtOne > 0, "\(leftAtOne) pushes were left when the limit came down to 1")
        let connections = try await gatewayConnections(control)
        #expect((1...2).contains(connections.count), "\(connections)")
        for connection in connections {
            #expect(connection["acknowledged_max_streams"] as? Int == 1, "\(connection)")
            #expect((connection["high_water"] as? Int ?? 99) <= 1, "\(connection)")
        }
        #expect(connections.contains { $0["high_water"] as? Int == 1 }, "\(connections)")

        // One 200 per device and no push without an answer: none timed out.
        let after = try await PrometheusScrape.scrape("\(fanOut.base)/metrics")
        #expect(
            after.delta("livegate_apns_pushes_total", ["kind": "device", "status": "200"], since: fanOut.metricsBefore)
                == Double(devices.count))
        #expect(after.delta("livegate_apns_pushes_total", ["kind": "device", "status": "none"], since: fanOut.metricsBefore) == 0)
    }
}
