import APNsClient
import APNsSimulator
import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import NIOCore
import Testing

/// The simulator holds answers back on a connection (its latency, a token's own delay) and sends each
/// when it comes due, whatever the order the requests came in.
@Suite("APNs simulator latency")
struct APNsSimulatorLatencyTests {
    static let delivered = APNsSimulatorControlTests.delivered

    /// At 200 ms of latency, a push whose token adds 1.5 s comes first; 20 pushes after it on the same
    /// connection come due 1.4 s before it, and are answered then: not held behind it, and not early.
    @Test func answersLeaveAsTheyComeDueNotInTheOrderTheyCameIn() async throws {
        let transport = HTTP2ClientConfiguration(maximumConnectionsPerHost: 1, maximumStreamsPerConnection: 100)
        try await APNsSimulatorTests.withSimulator(transport: transport) { simulator, app, sender, _ in
            // Opens the connection and has the provider token verified before anything is timed.
            #expect(await sender.send(APNsSimulatorTests.push(String(repeating: "01", count: 32)), app: app) == Self.delivered)
            simulator.setLatency(.milliseconds(200))
            let slowToken = String(repeating: "5a", count: 32)
            simulator.setBehavior(.delay(milliseconds: 1_500), for: slowToken)
            let clock = ContinuousClock()
            let started = clock.now
            async let slow = { () async -> (APNsSendResult, ContinuousClock.Instant) in
                (await sender.send(APNsSimulatorTests.push(slowToken), app: app), clock.now)
            }()
            try await Task.sleep(for: .milliseconds(100))
            let quickStarted = clock.now
            let quickTokens = (0..<20).map { String(format: "%064x", 0x100 + $0) }
            let quick = await sender.send(quickTokens.map { APNsSimulatorTests.push($0) }, to: try #require(app.destination))
            let quickDone = clock.now
            let (slowResult, slowDone) = await slow

            #expect(quick.allSatisfy { $0 == Self.delivered }, "\(quick.prefix(3))")
            #expect(slowResult == Self.delivered)
            #expect(quickDone - quickStarted >= .milliseconds(195), "answered \(quickDone - quickStarted) after sending")
            #expect(slowDone - started >= .milliseconds(1_695), "answered \(slowDone - started) after sending")
            // Held behind the slow answer, they would have come with it (1.6 s after they were sent).
            #expect(slowDone - quickDone >= .milliseconds(500), "quick answers \(quickDone - started), slow one \(slowDone - started)")
        }
    }
}
