import APNsClient
import APNsCore
import APNsSimulator
import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import NIOCore
import TestSupport
import Testing

/// The simulator's latency and stream limit (`--latency-ms`, `--max-streams`, `/_sim/settings`), as
/// the gateway's HTTP/2 client (libcurl 7.88) meets them over TLS: answers come no sooner than the
/// latency without streams waiting for each other, and the client keeps to the advertised limit, also
/// when it is lowered mid-run, failing and losing nothing.
@Suite("APNs simulator latency and stream limit")
struct APNsSimulatorStreamLimitTests {
    typealias Faults = APNsSimulatorFaultTests

    static func settings(_ control: SimulatorControlClient, _ body: String) async throws -> [String: Any] {
        let response = try await control.request("PUT", "/_sim/settings", body: body)
        #expect(response.status == 200, "\(response.text)")
        return try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    }

    @Test func latencyDelaysEveryAnswerWithoutSerialisingStreams() async throws {
        try await Faults.withSimulator(transport: .init(maximumConnectionsPerHost: 1)) { simulator, app, sender, caFile in
            let control = SimulatorControlClient(port: try #require(app.endpoint.url.port), caFile: caFile)
            let shown = try await Self.settings(control, #"{"latency_ms":400}"#)
            await control.shutdown()
            #expect(shown["latency_ms"] as? Int == 400)
            #expect(simulator.latency == .milliseconds(400))
            let destination = try #require(app.destination)

            let clock = ContinuousClock()
            let started = clock.now
            let single = await sender.send([Faults.push(0)], to: destination)
            #expect(single.allSatisfy(Faults.isDelivered))
            #expect(clock.now - started >= .milliseconds(400))

            let pushes = (1...50).map(Faults.push)
            let batchStarted = clock.now
            let results = await sender.send(pushes, to: destination)
            let elapsed = clock.now - batchStarted
            #expect(results.allSatisfy(Faults.isDelivered), "\(results)")
            #expect(elapsed >= .milliseconds(400))
            // Not one after the other: the connection carried several of them at once.
            #expect(simulator.connectionStreams.map(\.mostEver).max() ?? 0 > 1, "\(simulator.connectionStreams)")
            #expect(simulator.received.count == 51)
        }
    }

    @Test func theClientKeepsToTheAdvertisedStreamLimit() async throws {
        try await Faults.withSimulator(transport: .init(maximumConnectionsPerHost: 1)) { simulator, app, sender, caFile in
            let control = SimulatorControlClient(port: try #require(app.endpoint.url.port), caFile: caFile)
            let shown = try await Self.settings(control, #"{"latency_ms":100,"max_streams":5}"#)
            await control.shutdown()
            #expect(shown["max_streams"] as? Int == 5)
            let destination = try #require(app.destination)
            // The connection is open, and the limit read, before the clock starts: streams opened before
            // libcurl reads the SETTINGS (a busy machine can be slow to) would take its default of 100.
            #expect(Faults.isDelivered(await sender.send(Faults.push(1_000), to: destination)))
            let pushes = (0..<40).map(Faults.push)
            let clock = ContinuousClock()
            let started = clock.now
            let results = await sender.send(pushes, to: destination)
            let elapsed = clock.now - started
            #expect(results.allSatisfy(Faults.isDelivered), "\(results)")
            #expect(Set(simulator.received.map(\.deviceToken)).count == 41)
            let pushConnections = simulator.connectionStreams.filter { $0.mostEver > 0 && $0.acknowledgedLimit == 5 }
            #expect(!pushConnections.isEmpty, "\(simulator.connectionStreams)")
            for connection in pushConnections {
                #expect(connection.highWater <= 5, "\(connection)")
            }
            // 40 pushes 5 at a time: 8 rounds of 100 ms.
            #expect(elapsed >= .milliseconds(790), "\(elapsed)")
        }
    }

    /// 300 pushes on two connections that allow 20 streams each. The first round's answers wait 3 s; once
    /// 40 have arrived the limit drops to 3 (and later answers take 100 ms), and the test waits until
    /// the client has acknowledged it on every connection, which it does while the first round is
    /// still unanswered. Every push is delivered once, and after acknowledging the new limit the client
    /// never has more than 3 streams open on a connection: the others wait, none fails. The simulator
    /// counts streams frame by frame, in the client's order, so a stream opened just before the
    /// acknowledgement is not taken for one opened after it.
    @Test func loweringTheLimitMidRunFailsNothingAndLosesNothing() async throws {
        try await Faults.withSimulator(transport: .init(maximumConnectionsPerHost: 2)) { simulator, app, sender, caFile in
            simulator.setLatency(.seconds(3))
            simulator.setMaximumConcurrentStreams(20)
            let destination = try #require(app.destination)
            let pushes = (0..<300).map(Faults.push)
            async let results = sender.send(pushes, to: destination)
            try await DeliveryCrashTests.waitUntil("the first 40 pushes arrived", timeout: .seconds(60)) {
                simulator.received.count >= 40
            }
            let control = SimulatorControlClient(port: try #require(app.endpoint.url.port), caFile: caFile)
            let shown = try await Self.settings(control, #"{"max_streams":3,"latency_ms":100}"#)
            await control.shutdown()
            #expect(shown["max_streams"] as? Int == 3)
            // The pushes' connections have answers due, so the client reads the SETTINGS frame and
            // acknowledges it; the control request's own connection carried one stream at a time.
            try await DeliveryCrashTests.waitUntil("the client acknowledged the lower limit", timeout: .seconds(60)) {
                let connections = simulator.connectionStreams.filter { $0.mostEver > 1 }
                return !connections.isEmpty && connections.allSatisfy { $0.acknowledgedLimit == 3 }
            }

            let answers = await results
            #expect(answers.allSatisfy(Faults.isDelivered), "\(answers.filter { !Faults.isDelivered($0) }.prefix(3))")
            let received = simulator.received
            #expect(received.count == 300)
            #expect(Set(received.map(\.deviceToken)) == Set(pushes.map(\.deviceToken.hex)))
            let pushConnections = simulator.connectionStreams.filter { $0.mostEver > 1 }
            #expect(pushConnections.count == 2, "\(simulator.connectionStreams)")
            #expect(pushConnections.contains { $0.mostEver > 3 }, "the pushes used more than 3 streams before the limit came down")
            for connection in pushConnections {
                #expect(connection.acknowledgedLimit == 3, "\(connection)")
                #expect(connection.highWater <= 3, "\(connection)")
            }
            // The client has at most 200 pushes in libcurl at once (2 × 100): at least 100 went out
            // after the acknowledgement, within the new limit.
            #expect(pushConnections.contains { $0.highWater > 0 }, "streams opened after the lower limit was acknowledged")
        }
    }

    /// A push that waits for a stream is not timed while it waits: with one stream, answers after 200 ms
    /// and a 3 s response timeout (15 answers' worth, so a stalled machine does not trip it), 30 pushes
    /// queue for 6 s and are all delivered, each once. A push whose own answer takes longer than the
    /// timeout still times out, and frees its stream.
    @Test func waitingForAStreamDoesNotCountTowardsTheResponseTimeout() async throws {
        let transport = HTTP2ClientConfiguration(responseTimeout: .seconds(3), maximumConnectionsPerHost: 1)
        try await Faults.withSimulator(transport: transport) { simulator, app, sender, _ in
            simulator.setLatency(.milliseconds(200))
            simulator.setMaximumConcurrentStreams(1)
            let destination = try #require(app.destination)
            // The connection is open and its limit read before the queue forms.
            #expect(Faults.isDelivered(await sender.send(Faults.push(1_000), to: destination)))
            let slow = Faults.push(999)
            simulator.setBehavior(.delay(milliseconds: 5_000), for: slow.deviceToken.hex)
            let pushes = (0..<30).map(Faults.push) + [slow]

            let clock = ContinuousClock()
            let started = clock.now
            let results = await sender.send(pushes, to: destination)
            let elapsed = clock.now - started

            #expect(results.dropLast().allSatisfy(Faults.isDelivered), "\(results.filter { !Faults.isDelivered($0) }.prefix(3))")
            #expect(Faults.transportError(results.last!) == .timedOut, "\(results.last!)")
            // One at a time: 30 answers of 200 ms and the slow one's 3 s, far beyond the timeout.
            #expect(elapsed >= .milliseconds(6_000), "\(elapsed)")
            let received = simulator.received.map(\.deviceToken)
            #expect(received.count == 32)
            #expect(Set(received) == Set((pushes + [Faults.push(1_000)]).map(\.deviceToken.hex)))
            let connections = simulator.connectionStreams.filter { $0.mostEver > 0 }
            #expect(connections.count == 1, "\(connections)")
            #expect(connections.allSatisfy { $0.acknowledgedLimit == 1 && $0.highWater == 1 }, "\(connections)")
        }
    }
}
