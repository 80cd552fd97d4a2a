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

/// `livegate apns-sim --latency-ms N --max-streams M` as a separate process, met by real clients: nghttp
/// reads the advertised limit, the gateway's sender keeps to it, and a hundred requests at once are each
/// answered N ms after they arrived, together. Out-of-range values are refused, on the command line and
/// through `PUT /_sim/settings`.
@Suite("livegate apns-sim --latency-ms and --max-streams", .heavy, .requiresPostgres)
struct APNsSimulatorOptionsTests {
    /// 28 pushes at once on one connection that allows 7 streams, answered after 300 ms: the sender
    /// (which would use 100) has exactly 7 open at a time, so they take 4 rounds.
    @Test func maxStreamsIsAdvertisedAndTheSenderKeepsToIt() async throws {
        try await SimulatorProcess.with(options: ["--max-streams", "7", "--latency-ms", "300"]) { port, keys, certificate, control in
            let frames = try await Subprocess.bash("nghttp -nv https://127.0.0.1:\(port)/3/device/00 2>&1")
            #expect(frames.stdout.contains("[SETTINGS_MAX_CONCURRENT_STREAMS(0x03):7]"), "\(frames.stdout)")
            let shown = try await SimulatorProcess.settings(control)
            #expect(shown["max_streams"] as? Int == 7 && shown["latency_ms"] as? Int == 300, "\(shown)")

            let sender = APNsSender(
                transport: .init(maximumConnectionsPerHost: 1, maximumStreamsPerConnection: 100, trustedCAFile: certificate))
            let failure: (any Error)?
            do {
                try await TestDatabase.with { database in
                    let app = try await database.makeSimulatorApp(port: port, keys: keys)
                    let destination = try #require(app.destination)
                    // The connection is open, and the limit read and acknowledged, before the clock starts.
                    #expect(APNsSimulatorFaultTests.isDelivered(await sender.send(APNsSimulatorFaultTests.push(1_000), to: destination)))
                    let clock = ContinuousClock()
                    let started = clock.now
                    let results = await sender.send((0..<28).map(APNsSimulatorFaultTests.push), to: destination)
                    let elapsed = clock.now - started
                    #expect(results.allSatisfy(APNsSimulatorFaultTests.isDelivered), "\(results)")
                    #expect(elapsed >= .milliseconds(1_200), "28 pushes 7 at a time take 4 rounds of 300 ms, not \(elapsed)")
                    let connections = try await SimulatorProcess.connections(control).filter { ($0["most_streams_ever"] as? Int ?? 0) > 1 }
                    #expect(connections.count == 1 && connections[0]["high_water"] as? Int == 7, "7 at a time: \(connections)")
                }
                failure = nil
            } catch {
                failure = error
            }
            await sender.shutdown()
            if let failure { throw failure }

            // nghttp's and the control client's connections carried one stream at a time.
            let used = try await SimulatorProcess.connections(control).filter { ($0["most_streams_ever"] as? Int ?? 0) > 1 }
            #expect(used.count == 1, "\(used)")
            for connection in used {
                #expect(connection["acknowledged_max_streams"] as? Int == 7, "\(connection)")
                #expect(connection["high_water"] as? Int == 7 && connection["most_streams_ever"] as? Int == 7, "\(connection)")
            }
        }
    }

    /// 100 requests at once on one connection, with --latency-ms 1000: none is answered sooner than
    /// 1 s after it was sent, and all of them together in about 1 s: one after another would take 100 s.
    /// (Alone it takes 1.05 s; each answer's own time is bounded, with room for a busy machine.)
    @Test func latencyAnswersEveryRequestThatLongAfterItArrivedWithoutSerialising() async throws {
        try await SimulatorProcess.with(options: ["--latency-ms", "1000"]) { port, _, certificate, control in
            #expect(try await SimulatorProcess.settings(control)["latency_ms"] as? Int == 1000)
            let base = "https://127.0.0.1:\(port)"
            let client = CurlHTTP2Client(
                configuration: .init(maximumConnectionsPerHost: 1, maximumStreamsPerConnection: 200, trustedCAFile: certificate))
            // Control requests are answered at once: this one opens the connection before the clock starts.
            let opened = try? await client.send(HTTP2Request(url: base + "/_sim/settings", method: "GET"))
            #expect(opened?.status == 200)
            // Without a provider token: APNs's 403, after the latency like any answer.
            let requests = (0..<100).map { HTTP2Request(url: "\(base)/3/device/\(String(format: "%064x", $0))", body: Array("{}".utf8)) }
            let clock = ContinuousClock()
            let started = clock.now
            let results = await client.send(batch: requests)
            let elapsed = clock.now - started
            await client.shutdown()

            let responses = results.compactMap { try? $0.get() }
            #expect(responses.count == 100, "\(results.filter { (try? $0.get()) == nil }.prefix(3))")
            #expect(responses.allSatisfy { $0.status == 403 && $0.body == Array(#"{"reason":"MissingProviderToken"}"#.utf8) })
            let soonest = try #require(responses.map(\.answerTime).min())
            // libcurl reads its clock once per pass, so its timings may come a few ms short.
            #expect(soonest >= .milliseconds(990), "an answer came \(soonest) after its request")
            #expect(elapsed >= .milliseconds(1_000), "\(elapsed)")
            // Serialised, the last answer would come 100 s after it was sent: the ceilings leave a busy
            // machine room and still tell the two apart.
            let slowest = try #require(responses.map(\.answerTime).max())
            #expect(slowest < .seconds(50), "the slowest of 100 answers at 1 s latency took \(slowest)")
            #expect(elapsed < .seconds(90), "100 requests at 1 s latency took \(elapsed), the slowest answer \(slowest)")
        }
    }

    @Test(arguments: [
        (["--latency-ms=-1"], "--latency-ms takes 0 to 600000"),
        (["--latency-ms", "600001"], "--latency-ms takes 0 to 600000"),
        (["--retain-pushes=-1"], "--retain-pushes takes 0 to 100000000"),
        (["--max-streams", "0"], "--max-streams takes 1 to 2147483647"),
        (["--max-streams", "2147483648"], "--max-streams takes 1 to 2147483647"),
        (["--max-streams", "many"], "The value 'many' is invalid for '--max-streams <max-streams>'"),
    ])
    func outOfRangeOptionsAreRefused(arguments: [String], message: String) async throws {
        let output = try await Subprocess.run(LiveGateBinary.path, ["apns-sim", "--port", "1"] + arguments)
        #expect(output.status == 64, "\(output.stderr)")
        #expect(output.stderr.contains("Error: \(message)"), "\(output.stderr)")
    }

    /// `PUT /_sim/settings` refuses what it cannot apply, with 400 and why, and changes nothing then.
    @Test func theControlAPIRefusesSettingsOutOfRange() async throws {
        try await SimulatorProcess.with(options: ["--latency-ms", "20", "--max-streams", "50"]) { _, _, _, control in
            let refused: [(body: String, error: String)] = [
                (#"{"max_streams":0}"#, "max_streams must be an integer from 1 to 2147483647"),
                (#"{"latency_ms":600001,"max_streams":5}"#, "latency_ms must be an integer from 0 to 600000"),
                (#"{"latency_ms":1.5}"#, "latency_ms must be an integer from 0 to 600000"),
                (#"{"latency":5}"#, "unknown field 'latency': use latency_ms, max_streams"),
                ("{}", "give latency_ms, max_streams or both"),
                ("[5]", #"the body must be a JSON object such as {\"latency_ms\":50,\"max_streams\":100}"#),
            ]
            for (body, error) in refused {
                let response = try await control.request("PUT", "/_sim/settings", body: body)
                #expect(
                    response.status == 400 && response.text == #"{"error":"\#(error)"}"#, "\(body): \(response.status) \(response.text)")
            }
            let post = try await control.request("POST", "/_sim/settings", body: #"{"max_streams":5}"#)
            #expect(post.status == 405 && post.text == #"{"error":"/_sim/settings takes GET or PUT"}"#, "\(post.text)")
            let shown = try await SimulatorProcess.settings(control)
            #expect(shown["latency_ms"] as? Int == 20 && shown["max_streams"] as? Int == 50, "\(shown)")

            let changed = try await control.request("PUT", "/_sim/settings", body: #"{"latency_ms":0,"max_streams":2147483647}"#)
            #expect(changed.status == 200, "\(changed.text)")
            let now = try await SimulatorProcess.settings(control)
            #expect(now["latency_ms"] as? Int == 0 && now["max_streams"] as? Int == 2_147_483_647, "\(now)")
        }
    }
}
