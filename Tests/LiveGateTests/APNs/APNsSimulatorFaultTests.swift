import APNsClient
import APNsCore
import APNsSimulator
import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import TestSupport
import Testing

/// Each fault of the simulator, as the gateway's HTTP/2 client (libcurl 7.88) meets it, one push at a
/// time: what the sender reports, and what the simulator recorded as received.
@Suite("APNs simulator faults, driven by the gateway's sender", .requiresPostgres)
struct APNsSimulatorFaultTests {
    static let delivered = APNsSimulatorControlTests.delivered

    static func token(_ index: Int) -> String {
        String(repeating: "cd", count: 28) + String(format: "%08x", index)
    }

    static func push(_ index: Int) -> LiveActivityPush {
        LiveActivityPush(
            deviceToken: PushToken(hex: token(index))!, payload: APNsSimulatorTests.push(token(index)).payload,
            priority: .immediate, expiresAt: Date(timeIntervalSince1970: 1_685_995_200))
    }

    static func transportError(_ result: APNsSendResult) -> HTTP2TransportError.Code? {
        guard case .unreachable(let error) = result else { return nil }
        return error.code
    }

    static func isDelivered(_ result: APNsSendResult) -> Bool {
        guard case .answered(let response) = result else { return false }
        return response.status == 200
    }

    /// `APNsSimulatorTests.withSimulator`, with what a second sender needs: the simulator's certificate.
    static func withSimulator(
        transport: HTTP2ClientConfiguration = .init(),
        _ body: (_ simulator: APNsSimulator, _ app: App, _ sender: APNsSender, _ caFile: String) async throws -> Void
    ) async throws {
        try await SimulatorFixture.with { fixture in
            var transport = transport
            transport.trustedCAFile = fixture.certificate.certificateFile
            let sender = APNsSender(transport: transport)
            do {
                try await TestDatabase.with { database in
                    let app = try await database.makeApp(
                        in: try await database.makeWorkspace(), bundleID: APNsSimulatorTests.bundleID, endpoint: fixture.endpoint,
                        credentials: fixture.credentials)
                    try await body(fixture.simulator, app, sender, fixture.certificate.certificateFile)
                }
            } catch {
                await sender.shutdown()
                throw error
            }
            await sender.shutdown()
        }
    }

    /// A GOAWAY after 10 streams, with 40 pushes on the connection at once (answers delayed, so they are
    /// all open): the simulator answers every stream up to the GOAWAY's last stream id and processes no
    /// later one. The client reports those as `lostAfterSending` (libcurl 7.88 does not tell a refused
    /// stream from a lost answer) and sends none of them again by itself.
    @Test func aGoAwayAnswersUpToItsLastStreamAndProcessesNoneAfter() async throws {
        try await Self.withSimulator(transport: .init(maximumConnectionsPerHost: 1)) { simulator, app, sender, _ in
            let pushes = (0..<40).map(Self.push)
            for push in pushes { simulator.setBehavior(.delay(milliseconds: 100), for: push.deviceToken.hex) }
            simulator.setGoAway(GoAwayFault(afterStreams: 10, connections: 1))
            let destination = try #require(app.destination)
            let results = await sender.send(pushes, to: destination)

            let answered = zip(pushes, results).filter { Self.isDelivered($0.1) }
            let refused = results.filter { Self.transportError($0) == .lostAfterSending }
            #expect(answered.count + refused.count == pushes.count, "\(results.filter { Self.transportError($0) != .lostAfterSending })")
            #expect(answered.count >= 10 && !refused.isEmpty)
            let received = simulator.received
            #expect(received.count == answered.count, "every push answered arrived once, no refused one did")
            #expect(Set(received.map(\.deviceToken)) == Set(answered.map(\.0.deviceToken.hex)))
            #expect(Set(received.map(\.connection)) == [1])
            #expect(simulator.faultReport.goAwaysSent == 1)

            // The fault was for one connection: the next pushes go through on a new one.
            let again = await sender.send((100..<103).map(Self.push), to: destination)
            #expect(again.allSatisfy(Self.isDelivered))
            #expect(simulator.received.suffix(3).allSatisfy { $0.connection == 2 })
        }
    }

    /// The GOAWAY frame itself, as nghttp2's client prints it: NO_ERROR, the last stream processed,
    /// a JSON reason; the streams after it are never answered.
    @Test func theGoAwayFrameNamesTheLastStreamProcessed() async throws {
        try await APNsSimulatorTests.withSimulator { simulator, _, _, port in
            simulator.setGoAway(GoAwayFault(afterStreams: 3))
            // Six requests at once on one connection: streams 1, 3, 5, 7, 9 and 11 (--no-dep: no idle
            // streams for a priority tree take the first ids).
            let frames = try await Subprocess.bash("nghttp -nv --no-dep -m 6 https://127.0.0.1:\(port)/3/device/00 2>&1")
            #expect(
                frames.stdout.contains(#"recv GOAWAY frame <length=29, flags=0x00, stream_id=0>"#)
                    && frames.stdout.contains(#"(last_stream_id=5, error_code=NO_ERROR(0x00), opaque_data(21)=[{"reason":"Shutdown"}])"#),
                "\(frames.stdout)")
            // Streams 1, 3 and 5 got APNs's answer (405: a GET); none after them did.
            #expect(frames.stdout.components(separatedBy: ":status: 405").count - 1 == 3, "\(frames.stdout)")
            #expect(simulator.rejections == ["MethodNotAllowed": 3])
            #expect(frames.stdout.contains("Some requests were not processed. total=6, processed=3"), "\(frames.stdout)")
        }
    }

    /// RST_STREAM with REFUSED_STREAM: the push was not processed, and is not recorded; sent again, it
    /// arrives once.
    @Test func aStreamRefusedIsNotProcessed() async throws {
        try await APNsSimulatorTests.withSimulator { simulator, app, sender, _ in
            let token = Self.token(1)
            simulator.setFault(.resetStream(.refusedStream), for: token)
            #expect(Self.transportError(await sender.send(APNsSimulatorTests.push(token), app: app)) == .lostAfterSending)
            #expect(simulator.received.isEmpty)
            #expect(await sender.send(APNsSimulatorTests.push(token), app: app) == Self.delivered)
            #expect(simulator.received.map(\.deviceToken) == [token])
            #expect(simulator.received.first?.fault == nil)
            #expect(simulator.faultReport.streamsReset == 1)
        }
    }

    /// RST_STREAM with another code: the simulator took the push first (the worst the protocol allows),
    /// and the sender only learns the stream broke.
    @Test func aStreamResetOtherwiseWasProcessed() async throws {
        try await APNsSimulatorTests.withSimulator { simulator, app, sender, _ in
            let token = Self.token(2)
            simulator.setFault(.resetStream(.internalError), for: token)
            #expect(Self.transportError(await sender.send(APNsSimulatorTests.push(token), app: app)) == .connectionLost)
            #expect(simulator.received.map(\.deviceToken) == [token])
            #expect(simulator.received.first?.fault == .resetStream(.internalError))
            #expect(await sender.send(APNsSimulatorTests.push(token), app: app) == Self.delivered, "once only")
        }
    }

    /// Every third push is refused, twice in all.
    @Test func everyNthPushMeetsTheFault() async throws {
        try await APNsSimulatorTests.withSimulator { simulator, app, sender, _ in
            simulator.setFault(.resetStream(.refusedStream), everyNthPush: 3, times: 2)
            var refused: [Int] = []
            for index in 1...9 {
                let result = await sender.send(APNsSimulatorTests.push(Self.token(index)), app: app)
                if result != Self.delivered { refused.append(index) }
            }
            #expect(refused == [3, 6])
            #expect(simulator.received.map(\.deviceToken) == [1, 2, 4, 5, 7, 8, 9].map(Self.token))
        }
    }

    /// The answer's headers (200) come, then the connection closes without the stream's end: APNs took
    /// the push and said so, and the sender reads it as answered. The next push opens a new connection.
    @Test func anAnswerCutOffAfterItsHeadersStillSays200() async throws {
        try await APNsSimulatorTests.withSimulator { simulator, app, sender, _ in
            let token = Self.token(3)
            simulator.setFault(.closeAfterHeaders, for: token)
            #expect(await sender.send(APNsSimulatorTests.push(token), app: app) == Self.delivered)
            #expect(await sender.send(APNsSimulatorTests.push(Self.token(4)), app: app) == Self.delivered)
            #expect(simulator.received.map(\.deviceToken) == [token, Self.token(4)])
            #expect(simulator.received.map(\.connection) == [1, 2])
            #expect(simulator.faultReport.closedConnections == [1])
        }
    }

    /// A connection reset before the answer, on a connection not reused: the sender gets no answer;
    /// the push had arrived.
    @Test func aConnectionResetBeforeTheAnswerLosesIt() async throws {
        try await APNsSimulatorTests.withSimulator { simulator, app, sender, _ in
            let token = Self.token(5)
            simulator.setFault(.closeBeforeAnswer, for: token)
            let result = await sender.send(APNsSimulatorTests.push(token), app: app)
            #expect([.connectionLost, .lostAfterSending].contains(Self.transportError(result)), "\(result)")
            #expect(simulator.received.map(\.deviceToken) == [token])
            #expect(simulator.received.first?.fault == .closeBeforeAnswer)
        }
    }

    /// The next two connections have their TLS handshake refused; the third is served. Each push waits
    /// out the client's backoff after a refusal (100 ms, then 200 ms): sooner, it would fail untried.
    @Test func refusedHandshakesFailThenConnectionsAreServedAgain() async throws {
        try await APNsSimulatorTests.withSimulator { simulator, app, sender, _ in
            simulator.setTLSRefusal(.connections(2))
            for backoff in [100, 200] {
                #expect(Self.transportError(await sender.send(APNsSimulatorTests.push(Self.token(6)), app: app)) == .tlsFailed)
                try await Task.sleep(for: .milliseconds(backoff + 50))
            }
            #expect(await sender.send(APNsSimulatorTests.push(Self.token(6)), app: app) == Self.delivered)
            #expect(simulator.received.map(\.connection) == [3])
            #expect(simulator.faultReport.tlsRefused == 2)
        }
    }

    /// Handshakes are refused for a while, then served; a connection already open is not affected. The
    /// second sender tries a handshake for its first push and for each probe after it (`ConnectBackoff`);
    /// pushes between probes fail as TLS failures without one (`ConnectBackoffTests` counts those).
    @Test func handshakesRefusedForAWhile() async throws {
        try await Self.withSimulator { simulator, app, sender, caFile in
            #expect(await sender.send(APNsSimulatorTests.push(Self.token(7)), app: app) == Self.delivered)
            // Long enough that a busy machine still opens the second sender's connection inside it.
            simulator.setTLSRefusal(.during(.milliseconds(1_500)))
            let started = ContinuousClock.now
            #expect(await sender.send(APNsSimulatorTests.push(Self.token(8)), app: app) == Self.delivered, "the open connection")
            // A second sender needs a connection of its own.
            let other = APNsSender(transport: .init(trustedCAFile: caFile))
            var failures = 0
            var result = await other.send(APNsSimulatorTests.push(Self.token(9)), app: app)
            while Self.transportError(result) == .tlsFailed, ContinuousClock.now - started < .seconds(5) {
                failures += 1
                try await Task.sleep(for: .milliseconds(50))
                result = await other.send(APNsSimulatorTests.push(Self.token(9)), app: app)
            }
            await other.shutdown()
            #expect(result == Self.delivered)
            #expect(failures >= 1 && ContinuousClock.now - started >= .milliseconds(1_500))
            let refused = simulator.faultReport.tlsRefused
            // Fewer when pushes come between probes; as many when each push comes after the backoff.
            #expect(refused >= 1 && refused <= failures, "\(refused) handshakes for \(failures) failed pushes")
        }
    }
}
