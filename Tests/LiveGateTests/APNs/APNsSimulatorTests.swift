import APNsClient
import APNsCore
import APNsSimulator
import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import Logging
import NIOConcurrencyHelpers
import TestSupport
import Testing

@Suite("APNs simulator, driven by the gateway's sender", .requiresPostgres)
struct APNsSimulatorTests {
    static let bundleID = SimulatorFixture.bundleID

    /// A simulator over TLS that knows one provider key, an app whose pushes go to it, and a sender
    /// that trusts its certificate.
    static func withSimulator(
        clock: @escaping @Sendable () -> Date = { Date() }, tokens: ProviderTokenCache = ProviderTokenCache(),
        transport: HTTP2ClientConfiguration = .init(),
        _ body: (_ simulator: APNsSimulator, _ app: App, _ sender: APNsSender, _ port: Int) async throws -> Void
    ) async throws {
        try await SimulatorFixture.with(clock: clock) { fixture in
            var transport = transport
            transport.trustedCAFile = fixture.certificate.certificateFile
            let sender = APNsSender(tokens: tokens, transport: transport)
            do {
                try await TestDatabase.with { database in
                    let app = try await database.makeApp(
                        in: try await database.makeWorkspace(), bundleID: Self.bundleID, endpoint: fixture.endpoint,
                        credentials: fixture.credentials)
                    try await body(fixture.simulator, app, sender, fixture.port)
                }
            } catch {
                await sender.shutdown()
                throw error
            }
            await sender.shutdown()
        }
    }

    static func push(
        _ token: String,
        payload: String =
            #"{"aps":{"timestamp":1685952000,"event":"update","content-state":{"currentHealthLevel":0.941,"eventDescription":"Power Panda found a sword!"}}}"#
    ) -> LiveActivityPush {
        LiveActivityPush(
            deviceToken: PushToken(hex: token)!, payload: Array(payload.utf8), priority: .conservesPower,
            expiresAt: Date(timeIntervalSince1970: 1_685_995_200), apnsID: UUID(uuidString: "123E4567-E89B-12D3-A456-426614174000")!)
    }

    @Test func theSimulatorReceivesExactlyTheHeadersAndPayload() async throws {
        try await Self.withSimulator { simulator, app, sender, _ in
            let token = String(repeating: "a1", count: 32)
            #expect(
                await sender.send(Self.push(token), app: app)
                    == .answered(APNsResponse(status: 200, apnsID: "123e4567-e89b-12d3-a456-426614174000")))
            let received = simulator.received
            #expect(received.count == 1)
            let push = try #require(received.first)
            #expect(push.deviceToken == token)
            #expect(push.payload == Self.push(token).payload)
            #expect(push.headers["apns-push-type"] == "liveactivity")
            #expect(push.headers["apns-topic"] == "\(Self.bundleID).push-type.liveactivity")
            #expect(push.headers["apns-priority"] == "5")
            #expect(push.headers["apns-expiration"] == "1685995200")
            #expect(push.headers["apns-id"] == "123e4567-e89b-12d3-a456-426614174000")
            #expect(push.headers["authorization"]?.hasPrefix("bearer ey") == true)
        }
    }

    @Test func chosenTokensAnswerLikeAPNs() async throws {
        try await Self.withSimulator { simulator, app, sender, _ in
            let gone = String(repeating: "b2", count: 32)
            let flaky = String(repeating: "c3", count: 32)
            let throttled = String(repeating: "d4", count: 32)
            simulator.setBehavior(.unregistered, for: gone)
            simulator.setBehavior(.failFirst(times: 1, status: 500, reason: "InternalServerError"), for: flaky)
            simulator.setBehavior(.fail(status: 429, reason: "TooManyRequests"), for: throttled)

            guard case .answered(let response) = await sender.send(Self.push(gone), app: app), response.status == 410,
                response.reason == .unregistered, let timestamp = response.timestamp
            else {
                Issue.record("410 Unregistered with a timestamp expected")
                return
            }
            #expect(abs(Double(timestamp) / 1000 - Date().timeIntervalSince1970) < 60)
            #expect(
                await sender.send(Self.push(flaky), app: app)
                    == .answered(APNsResponse(status: 500, apnsID: "123e4567-e89b-12d3-a456-426614174000", reason: .internalServerError)))
            #expect(
                await sender.send(Self.push(flaky), app: app)
                    != .answered(APNsResponse(status: 500, apnsID: "123e4567-e89b-12d3-a456-426614174000", reason: .internalServerError)))
            #expect(
                await sender.send(Self.push(throttled), app: app)
                    == .answered(APNsResponse(status: 429, apnsID: "123e4567-e89b-12d3-a456-426614174000", reason: .tooManyRequests)))
            // 500 then 200: delivered once, after the retry.
            #expect(simulator.received.map(\.deviceToken) == [flaky])
        }
    }

    @Test func badPushesGetAPNsReasons() async throws {
        try await Self.withSimulator { simulator, app, sender, _ in
            let token = String(repeating: "e5", count: 32)
            let tooBig = #"{"aps":{"timestamp":1,"event":"update","content-state":{"s":"\#(String(repeating: "x", count: 4100))"}}}"#
            #expect(
                await sender.send(Self.push(token, payload: tooBig), app: app)
                    == .answered(APNsResponse(status: 413, apnsID: "123e4567-e89b-12d3-a456-426614174000", reason: .payloadTooLarge)))
            #expect(
                await sender.send(Self.push(token, payload: #"{"aps":{"event":"update"}}"#), app: app)
                    == .answered(
                        APNsResponse(
                            status: 400, apnsID: "123e4567-e89b-12d3-a456-426614174000",
                            reason: APNsReason(rawValue: "BadLiveActivityPayload"))))
            #expect(simulator.received.isEmpty)
        }
    }

    /// A provider token APNs calls expired is renewed once and the push goes through.
    @Test func anExpiredProviderTokenIsRenewed() async throws {
        let clock = NIOLockedValueBox(Date().addingTimeInterval(-61 * 60))
        let tokens = ProviderTokenCache(now: { clock.withLockedValue { $0 } })
        try await Self.withSimulator(tokens: tokens) { simulator, app, sender, _ in
            // A token made 61 minutes ago, which the cache (its clock 49 minutes later) still reuses.
            _ = try tokens.token(for: try #require(app.credentials))
            clock.withLockedValue { $0 = $0.addingTimeInterval(49 * 60) }
            let token = String(repeating: "f6", count: 32)
            #expect(
                await sender.send(Self.push(token), app: app)
                    == .answered(APNsResponse(status: 200, apnsID: "123e4567-e89b-12d3-a456-426614174000")))
            #expect(simulator.rejections["ExpiredProviderToken"] == 1)
            #expect(simulator.received.count == 1)
        }
    }

    @Test func aTokenSignedWithAnotherKeyIsRejectedAfterOneRenewal() async throws {
        let stranger = try await TestKeyPair.make()
        defer { stranger.remove() }
        try await Self.withSimulator { simulator, app, sender, _ in
            let impostor = try await TestDatabase.with { database in
                try await database.makeApp(
                    in: try await database.makeWorkspace(), endpoint: app.endpoint,
                    credentials: APNsCredentials(teamID: "TEAM123456", keyID: "KEY1234567", privateKeyPEM: stranger.privatePEM))
            }
            let token = String(repeating: "07", count: 32)
            #expect(
                await sender.send(Self.push(token), app: impostor)
                    == .answered(APNsResponse(status: 403, apnsID: "123e4567-e89b-12d3-a456-426614174000", reason: .invalidProviderToken)))
            #expect(simulator.rejections["InvalidProviderToken"] == 2, "the first token and its one renewal")
            #expect(simulator.received.isEmpty)
        }
    }

    @Test func aSlowAnswerTimesOut() async throws {
        try await Self.withSimulator(transport: .init(responseTimeout: .milliseconds(200))) { simulator, app, sender, _ in
            let token = String(repeating: "08", count: 32)
            simulator.setBehavior(.delay(milliseconds: 1_000), for: token)
            guard case .unreachable(let error) = await sender.send(Self.push(token), app: app) else {
                Issue.record("a slow answer did not time out")
                return
            }
            #expect(error.code == .timedOut)
        }
    }

    /// The connection breaks after APNs accepted a push and before its answer came. The push is reported
    /// unanswered, and it is not sent a second time behind the caller's back: libcurl on its own sends
    /// such a request again on a fresh connection (it got no byte of answer on a connection it reused),
    /// and the device would show it twice.
    @Test func aPushWhoseAnswerIsLostIsNotSentAgain() async throws {
        try await Self.withSimulator { simulator, app, sender, _ in
            let opener = String(repeating: "1b", count: 32)
            let lost = String(repeating: "2c", count: 32)
            // A connection to reuse: libcurl sends a request again only when it was on a reused one.
            #expect(
                await sender.send(Self.push(opener), app: app)
                    == .answered(APNsResponse(status: 200, apnsID: "123e4567-e89b-12d3-a456-426614174000")))
            simulator.setFault(.closeBeforeAnswer, for: lost)
            let result = await sender.send(Self.push(lost), app: app)
            guard case .unreachable(let error) = result else {
                Issue.record("the push whose answer was lost came back \(result)")
                return
            }
            #expect(error.code == .lostAfterSending)
            #expect(simulator.received.map(\.deviceToken) == [opener, lost], "the lost push arrived once")
            // The next push opens a new connection.
            #expect(
                await sender.send(Self.push(opener), app: app)
                    == .answered(APNsResponse(status: 200, apnsID: "123e4567-e89b-12d3-a456-426614174000")))
        }
    }

    /// Many pushes on one connection, answered after a little while so that many are in flight: each
    /// arrives once and is answered 200. libcurl 7.88 resets every stream once it has a bodiless answer;
    /// the simulator keeps such a client's connection rather than dropping it after 200 resets (NIO's
    /// default) with a GOAWAY that called the pushes it had accepted unprocessed, which libcurl then
    /// sent again (or, since the client stops that, which failed).
    @Test func aBusyConnectionCarriesEachPushOnce() async throws {
        try await Self.withSimulator(transport: .init(maximumConnectionsPerHost: 1)) { simulator, app, sender, _ in
            let payload = Array(#"{"aps":{"timestamp":1685952000,"event":"update","content-state":{"n":1}}}"#.utf8)
            let pushes = (1...600).map { index in
                LiveActivityPush(
                    deviceToken: PushToken(hex: String(format: "%064x", index))!, payload: payload, priority: .immediate,
                    expiresAt: Date(timeIntervalSince1970: 1_685_995_200))
            }
            for push in pushes { simulator.setBehavior(.delay(milliseconds: 5), for: push.deviceToken.hex) }
            let destination = try #require(app.destination)
            // In batches of 50 at once, as delivery sends them: more than the connection's 100 streams.
            let results = await withTaskGroup(of: [APNsSendResult].self) { group in
                for start in stride(from: 0, to: pushes.count, by: 50) {
                    group.addTask { await sender.send(Array(pushes[start..<start + 50]), to: destination) }
                }
                return await group.reduce(into: [APNsSendResult]()) { $0 += $1 }
            }
            let notDelivered = results.filter { result in
                guard case .answered(let response) = result else { return true }
                return response.status != 200
            }
            #expect(notDelivered.isEmpty, "\(notDelivered.count) not delivered, such as \(notDelivered.first.map { "\($0)" } ?? "")")
            let ids = simulator.received.compactMap { $0.headers["apns-id"] }
            #expect(ids.count == pushes.count, "each push arrived once")
            #expect(Set(ids) == Set(pushes.map { $0.apnsID.uuidString.lowercased() }))
        }
    }

    /// Like APNs, the simulator lets a client open 500 streams on one connection.
    @Test func itAdvertisesFiveHundredStreams() async throws {
        try await Self.withSimulator { _, _, _, port in
            // nghttp (nghttp2-client) prints the SETTINGS frames both ways.
            let frames = try await Subprocess.bash("nghttp -nv https://127.0.0.1:\(port)/3/device/00 2>&1")
            #expect(frames.stdout.contains("[SETTINGS_MAX_CONCURRENT_STREAMS(0x03):500]"), "\(frames.stdout)")
        }
    }
}

@Suite("livegate apns-sim", .requiresPostgres)
struct APNsSimulatorCommandTests {
    /// True when an unauthenticated push gets the simulator's (APNs's) answer.
    static func isSimulator(port: Int) async -> Bool {
        let client = CurlHTTP2Client()
        let response = try? await client.send(HTTP2Request(url: "http://127.0.0.1:\(port)/3/device/00", body: Array("{}".utf8)))
        await client.shutdown()
        guard let response else { return false }
        return response.status == 403 && String(decoding: response.body, as: UTF8.self).contains("MissingProviderToken")
    }

    @Test func theCommandServesAndChecksProviderTokens() async throws {
        let keys = try await TestKeyPair.make()
        let other = try await TestKeyPair.make()
        defer {
            keys.remove()
            other.remove()
        }
        // Given the .p8 itself, as the README's run command does. A port found free can be taken by a
        // parallel test before the simulator binds it: probe that the simulator is what answers.
        var started: (BackgroundProcess, Int)?
        for _ in 0..<3 where started == nil {
            let port = LiveGateBinary.freePort()
            let process = try BackgroundProcess(
                LiveGateBinary.path,
                ["apns-sim", "--port", String(port), "--provider-key", "KEY1234567:TEAM123456:\(keys.folder.path)/key.p8"])
            if (try? await BackgroundProcess.waitForPort(port)) != nil, await Self.isSimulator(port: port) {
                started = (process, port)
            } else {
                process.stop()
            }
        }
        let (simulator, port) = try #require(started)
        defer { simulator.stop() }
        try await TestDatabase.with { database in
            let workspace = try await database.makeWorkspace()
            let endpoint = APNsEndpoint(rawValue: "http://127.0.0.1:\(port)")!
            let app = try await database.makeApp(
                in: workspace, endpoint: endpoint,
                credentials: APNsCredentials(teamID: "TEAM123456", keyID: "KEY1234567", privateKeyPEM: keys.privatePEM))
            let impostor = try await database.makeApp(
                in: workspace, endpoint: endpoint,
                credentials: APNsCredentials(teamID: "TEAM123456", keyID: "KEY1234567", privateKeyPEM: other.privatePEM))
            let sender = APNsSender()
            let push = APNsSimulatorTests.push(String(repeating: "9a", count: 32))
            let delivered = await sender.send(push, app: app)
            #expect(delivered == .answered(APNsResponse(status: 200, apnsID: "123e4567-e89b-12d3-a456-426614174000")), "\(delivered)")
            let refused = await sender.send(push, app: impostor)
            #expect(
                refused
                    == .answered(APNsResponse(status: 403, apnsID: "123e4567-e89b-12d3-a456-426614174000", reason: .invalidProviderToken)),
                "\(refused)")
            await sender.shutdown()
        }
    }
}
