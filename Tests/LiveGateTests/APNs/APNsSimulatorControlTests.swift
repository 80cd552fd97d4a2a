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

@Suite("APNs simulator control API (/_sim/)", .requiresPostgres)
struct APNsSimulatorControlTests {
    /// A simulator over TLS with a certificate it made (`SelfSignedCertificate`), an app whose pushes go
    /// to it, a sender that trusts that certificate, and a control client that does too.
    static func withSimulator(
        retainedPushes: Int = 1_000_000,
        _ body: (_ simulator: APNsSimulator, _ app: App, _ sender: APNsSender, _ control: SimulatorControlClient) async throws -> Void
    ) async throws {
        let keys = try await TestKeyPair.make()
        defer { keys.remove() }
        let identity = try SelfSignedCertificate(host: "127.0.0.1")
        let caFile = keys.folder.appendingPathComponent("simulator.pem").path
        try Data(identity.certificatePEM.utf8).write(to: URL(fileURLWithPath: caFile))
        let simulator = APNsSimulator(
            configuration: SimulatorConfiguration(
                tls: .pem(certificate: identity.certificatePEM, privateKey: identity.privateKeyPEM),
                providerKeys: ["KEY1234567": .init(teamID: "TEAM123456", publicKey: try P256PublicKey(pem: keys.publicPEM))],
                retainedPushes: retainedPushes),
            logger: .quiet)
        let port = try await simulator.start()
        let sender = APNsSender(transport: .init(trustedCAFile: caFile))
        let control = SimulatorControlClient(port: port, caFile: caFile)
        let failure: (any Error)?
        do {
            try await TestDatabase.with { database in
                let app = try await database.makeSimulatorApp(port: port, keys: keys)
                try await body(simulator, app, sender, control)
            }
            failure = nil
        } catch {
            failure = error
        }
        await control.shutdown()
        await sender.shutdown()
        await simulator.stop()
        if let failure { throw failure }
    }

    static let delivered = APNsSendResult.answered(APNsResponse(status: 200, apnsID: "123e4567-e89b-12d3-a456-426614174000"))

    @Test func acceptedPushesAreListedAndCleared() async throws {
        try await Self.withSimulator { _, app, sender, control in
            let token = String(repeating: "a1", count: 32)
            let push = APNsSimulatorTests.push(token)
            #expect(await sender.send(push, app: app) == Self.delivered)

            let listed = try await control.request("GET", "/_sim/pushes")
            #expect(listed.status == 200)
            #expect(listed.headers["content-type"] == "application/json")
            #expect(listed.headers["apns-id"] == nil, "control answers are not APNs answers")
            // The payload comes back as sent: same keys in the same order, same number spellings.
            #expect(listed.text.contains(#""payload":\#(String(decoding: push.payload, as: UTF8.self))"#), "\(listed.text)")
            let pushes = try await control.pushes()
            #expect(pushes.count == 1)
            let first = try #require(pushes.first)
            #expect(first["device_token"] as? String == token)
            let headers = try #require(first["headers"] as? [String: String])
            #expect(headers["apns-topic"] == "\(APNsSimulatorTests.bundleID).push-type.liveactivity")
            #expect(headers["apns-push-type"] == "liveactivity")
            #expect(headers["apns-priority"] == "5")
            #expect(headers["apns-expiration"] == "1685995200")
            #expect(headers["apns-id"] == "123e4567-e89b-12d3-a456-426614174000")
            let authorization = try #require(headers["authorization"])
            #expect(authorization.hasPrefix("bearer ey") && authorization.hasSuffix(".(signature omitted)"), "\(authorization)")
            #expect(authorization.split(separator: ".").count == 3)
            let aps = try #require((first["payload"] as? [String: Any])?["aps"] as? [String: Any])
            #expect(aps["event"] as? String == "update")
            #expect((aps["content-state"] as? [String: Any])?["eventDescription"] as? String == "Power Panda found a sword!")
            let format = ISO8601DateFormatter()
            format.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            let receivedAt = try #require((first["received_at"] as? String).flatMap { format.date(from: $0) })
            #expect(abs(receivedAt.timeIntervalSinceNow) < 60)

            let cleared = try await control.request("DELETE", "/_sim/pushes")
            #expect(cleared.status == 204)
            #expect(cleared.body.isEmpty)
            #expect(try await control.request("GET", "/_sim/pushes").text == "[]")
        }
    }

    @Test func aTokenMadeToAnswer410AndBackToNormal() async throws {
        try await Self.withSimulator { simulator, app, sender, control in
            let token = String(repeating: "b2", count: 32)
            let set = try await control.request("PUT", "/_sim/tokens/\(token.uppercased())", body: #"{"status":410}"#)
            #expect(set.status == 200)
            #expect(set.text == #"{"status":410,"reason":"Unregistered"}"#)
            guard case .answered(let response) = await sender.send(APNsSimulatorTests.push(token), app: app), response.status == 410,
                response.reason == .unregistered, let timestamp = response.timestamp
            else {
                Issue.record("410 Unregistered with a timestamp expected")
                return
            }
            #expect(abs(Double(timestamp) / 1000 - Date().timeIntervalSince1970) < 60)

            let cleared = try await control.request("DELETE", "/_sim/tokens/\(token)")
            #expect(cleared.status == 204)
            #expect(await sender.send(APNsSimulatorTests.push(token), app: app) == Self.delivered)
            #expect(simulator.received.map(\.deviceToken) == [token])
            #expect(simulator.rejections["Unregistered"] == 1)
        }
    }

    @Test func chosenStatusesForSomeTimesOrAlways() async throws {
        try await Self.withSimulator { _, app, sender, control in
            let flaky = String(repeating: "c3", count: 32)
            let throttled = String(repeating: "d4", count: 32)
            let expired = String(repeating: "e5", count: 32)
            let once = try await control.request(
                "PUT", "/_sim/tokens/\(flaky)", body: #"{"status":500,"reason":"InternalServerError","times":1}"#)
            #expect(once.text == #"{"status":500,"reason":"InternalServerError","times":1}"#)
            #expect(
                try await control.request("PUT", "/_sim/tokens/\(throttled)", body: #"{"status":429}"#).text
                    == #"{"status":429,"reason":"TooManyRequests"}"#)
            #expect(
                try await control.request("PUT", "/_sim/tokens/\(expired)", body: #"{"status":410,"reason":"ExpiredToken"}"#).text
                    == #"{"status":410,"reason":"ExpiredToken"}"#)

            #expect(
                await sender.send(APNsSimulatorTests.push(flaky), app: app)
                    == .answered(APNsResponse(status: 500, apnsID: "123e4567-e89b-12d3-a456-426614174000", reason: .internalServerError)))
            #expect(await sender.send(APNsSimulatorTests.push(flaky), app: app) == Self.delivered)
            for _ in 0..<2 {
                #expect(
                    await sender.send(APNsSimulatorTests.push(throttled), app: app)
                        == .answered(APNsResponse(status: 429, apnsID: "123e4567-e89b-12d3-a456-426614174000", reason: .tooManyRequests)))
            }
            guard case .answered(let response) = await sender.send(APNsSimulatorTests.push(expired), app: app), response.status == 410,
                response.reason == .expiredToken, response.timestamp != nil
            else {
                Issue.record("410 ExpiredToken with a timestamp expected")
                return
            }
            #expect(try await control.pushes().map { $0["device_token"] as? String } == [flaky])
        }
    }

    /// A simulator keeping 3 pushes: after 5, `GET /_sim/pushes` has the newest 3, `GET /_sim/settings`
    /// counts the 2 dropped, and `DELETE /_sim/pushes` starts both afresh. Every push was answered 200.
    @Test func onlyTheNewestPushesAreKeptAndTheDroppedAreCounted() async throws {
        try await Self.withSimulator(retainedPushes: 3) { simulator, app, sender, control in
            let tokens = (1...5).map { String(format: "%064x", $0) }
            for token in tokens {
                #expect(await sender.send(APNsSimulatorTests.push(token), app: app) == Self.delivered)
            }
            #expect(try await control.pushes().map { $0["device_token"] as? String } == Array(tokens.suffix(3)))
            #expect(simulator.droppedPushes == 2)
            let settings = try await control.request("GET", "/_sim/settings")
            let shown = try #require(try JSONSerialization.jsonObject(with: Data(settings.body)) as? [String: Any])
            #expect(shown["retained_pushes"] as? Int == 3 && shown["dropped_pushes"] as? Int == 2, "\(shown)")

            #expect(try await control.request("DELETE", "/_sim/pushes").status == 204)
            #expect(simulator.droppedPushes == 0 && simulator.received.isEmpty)
            #expect(await sender.send(APNsSimulatorTests.push(tokens[0]), app: app) == Self.delivered)
            #expect(try await control.pushes().map { $0["device_token"] as? String } == [tokens[0]])
        }
    }

    @Test func aDelayedAnswer() async throws {
        try await Self.withSimulator { _, app, sender, control in
            let token = String(repeating: "f6", count: 32)
            let set = try await control.request("PUT", "/_sim/tokens/\(token)", body: #"{"delay_ms":300}"#)
            #expect(set.text == #"{"delay_ms":300}"#)
            let started = ContinuousClock.now
            #expect(await sender.send(APNsSimulatorTests.push(token), app: app) == Self.delivered)
            #expect(ContinuousClock.now - started >= .milliseconds(300))
        }
    }

    /// Each refused with a status and a message saying what to send instead; none changes anything.
    static let badRequests: [(method: String, path: String, body: String?, status: Int, answer: String)] = [
        ("PUT", "/_sim/tokens/zz", #"{"status":410}"#, 400, #"{"error":"'zz' is not a device token in hex"}"#),
        (
            "PUT", "/_sim/tokens/aabb", "[]", 400,
            #"{"error":"the body must be a JSON object such as {\"status\":410} or {\"delay_ms\":200}"}"#
        ),
        ("PUT", "/_sim/tokens/aabb", "{}", 400, #"{"error":"give status (with reason, times) or delay_ms"}"#),
        (
            "PUT", "/_sim/tokens/aabb", #"{"colour":"red"}"#, 400,
            #"{"error":"unknown field 'colour': use status, reason, times, retry_after or delay_ms"}"#
        ),
        (
            "PUT", "/_sim/tokens/aabb", #"{"status":410,"delay_ms":5}"#, 400,
            #"{"error":"delay_ms cannot be combined with status, reason, times or retry_after"}"#
        ),
        (
            "PUT", "/_sim/tokens/aabb", #"{"status":429,"retry_after":"soon"}"#, 400,
            #"{"error":"retry_after must be seconds from 0 to 86400 or an HTTP date such as \"Sun, 06 Nov 1994 08:49:37 GMT\""}"#
        ),
        ("PUT", "/_sim/tokens/aabb", #"{"status":200}"#, 400, #"{"error":"status must be an integer from 400 to 599"}"#),
        ("PUT", "/_sim/tokens/aabb", #"{"status":"410"}"#, 400, #"{"error":"status must be an integer from 400 to 599"}"#),
        ("PUT", "/_sim/tokens/aabb", #"{"status":418}"#, 400, #"{"error":"status 418 has no usual APNs reason: give one in reason"}"#),
        (
            "PUT", "/_sim/tokens/aabb", #"{"status":500,"reason":"a\"b"}"#, 400,
            #"{"error":"reason must be an APNs reason such as \"Unregistered\" (letters and digits)"}"#
        ),
        ("PUT", "/_sim/tokens/aabb", #"{"status":500,"times":0}"#, 400, #"{"error":"times must be an integer from 1 to 1000000"}"#),
        ("PUT", "/_sim/tokens/aabb", #"{"delay_ms":1.5}"#, 400, #"{"error":"delay_ms must be an integer from 0 to 600000"}"#),
        ("GET", "/_sim/tokens/aabb", nil, 405, #"{"error":"/_sim/tokens/<hex> takes PUT or DELETE"}"#),
        ("POST", "/_sim/pushes", "{}", 405, #"{"error":"/_sim/pushes takes GET or DELETE"}"#),
        (
            "GET", "/_sim/nothing", nil, 404,
            #"{"error":"no simulator endpoint GET /_sim/nothing: see /_sim/pushes, /_sim/tokens/<hex>, /_sim/broadcasts, /_sim/channels, /_sim/apps/<bundle id>, /_sim/settings and /_sim/faults"}"#
        ),
        (
            "GET", "/_sim/tokens/aabb/cc", nil, 404,
            #"{"error":"no simulator endpoint GET /_sim/tokens/aabb/cc: see /_sim/pushes, /_sim/tokens/<hex>, /_sim/broadcasts, /_sim/channels, /_sim/apps/<bundle id>, /_sim/settings and /_sim/faults"}"#
        ),
    ]

    @Test func badControlRequestsAreRefusedClearly() async throws {
        try await Self.withSimulator { _, app, sender, control in
            for bad in Self.badRequests {
                let response = try await control.request(bad.method, bad.path, body: bad.body)
                #expect(response.status == bad.status, "\(bad.method) \(bad.path) \(bad.body ?? "")")
                #expect(response.text == bad.answer, "\(bad.method) \(bad.path) \(bad.body ?? "")")
                #expect(response.headers["content-type"] == "application/json")
            }
            // Nothing changed: a push to the token is delivered as usual.
            #expect(await sender.send(APNsSimulatorTests.push("aabb"), app: app) == Self.delivered)
        }
    }

    /// The control API sits beside APNs's checks, not in front of them.
    @Test func pushesStillGetEveryAPNsCheck() async throws {
        try await Self.withSimulator { simulator, _, _, control in
            let token = String(repeating: "07", count: 32)
            _ = try await control.request("PUT", "/_sim/tokens/\(token)", body: #"{"delay_ms":0}"#)
            let unsigned = try await control.request("POST", "/3/device/\(token)", body: #"{"aps":{}}"#)
            #expect(unsigned.status == 403)
            #expect(unsigned.text == #"{"reason":"MissingProviderToken"}"#)
            #expect(unsigned.headers["apns-id"] != nil)
            let outside = try await control.request("POST", "/3/device/_sim/pushes", body: "{}")
            #expect(outside.status == 400)
            #expect(outside.text == #"{"reason":"BadDeviceToken"}"#)
            #expect(simulator.received.isEmpty)
        }
    }
}
