import APNsCore
import APNsSimulator
import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import PostgresClient
import TestSupport
import Testing

/// Payload truth through a running `livegate serve`, the TLS simulator and its own database, every call
/// over HTTP as the customer's server and LiveGateKit make them.
@Suite("Payload truth in a running gateway", .heavy, .requiresPostgres)
struct PayloadTruthServeTests {
    @Test func aRegisteredTypeRefusesWarnsAndSendsDatesThePhoneDecodes() async throws {
        try await SimulatorFixture.with { fixture in
            let simulator = fixture.simulator
            try await TestDatabase.with { database in
                let tenant = try await database.makeTenant(
                    bundleID: APNsSimulatorTests.bundleID, endpoint: fixture.endpoint, credentials: fixture.credentials)
                let gateway = try await DeliveryCrashTests.startGateway(
                    environment: LiveGateBinary.environment(
                        databaseURL: database.connectionString,
                        ["LIVEGATE_APNS_CA_FILE": fixture.certificate.certificateFile, "LIVEGATE_DELIVERY_POLL_MILLISECONDS": "100"]))
                defer { gateway.process.stop() }
                let call = DeviceTruthServeTests.Calls(base: "http://127.0.0.1:\(gateway.port)", tenant: tenant)
                let before = try await PrometheusScrape.scrape("\(call.base)/metrics")
                let typePath = "/live_activity/types/\(DeliveryTracking.name)"
                let app = tenant.app.identifier
                let put = try await Self.put(call, typePath, DeliveryTracking.registration(appID: app))
                #expect(put.status == 201, "\(put.text)")
                let registered = try await call.sdk(
                    "/push_token_tag",
                    #""device_id":"phone","tag":"order-7","push_token":"\#(token(0x71))","activity_attributes_type":"\#(DeliveryTracking.name)""#
                )
                #expect(registered.status == 201, "\(registered.text)")

                let refused = try await call.post(
                    "/messages/live_activity/update",
                    #""activity_id":"order-7","content_state":{"status":"preparing","eta":1798137000,"stops":"2"}"#)
                #expect(refused.status == 400)
                let errors = try #require(refused.json?["errors"] as? [String])
                #expect(errors.map { String($0.prefix { $0 != ":" }) }.sorted() == ["$.content_state.eta", "$.content_state.stops"])

                let accepted = try await call.post(
                    "/messages/live_activity/update",
                    #""activity_id":"order-7","content_state":{"status":"delivered","eta":"2026-12-24T19:30:00+01:00","stops":0}"#)
                #expect(accepted.status == 201, "\(accepted.text)")
                try await DeliveryCrashTests.waitUntil("the update is delivered", timeout: .seconds(60)) {
                    try await database.count("SELECT count(*) FROM dispatches WHERE status = 'done'") == 1
                }
                let push = try #require(simulator.received.first)
                let state = try DeliveryTracking.decodeContentState(ofPayload: push.payload)
                #expect(state.eta == Date(timeIntervalSince1970: 1_798_137_000), "19:30 at +01:00 is 18:30Z")
                #expect(state.status == .delivered)

                // Warn mode: the same mistake goes out, counted and logged once.
                #expect(try await Self.put(call, typePath, DeliveryTracking.registration(appID: app, mode: "warn")).status == 200)
                for _ in 0..<2 {
                    let warned = try await call.post(
                        "/messages/live_activity/update", #""activity_id":"order-7","content_state":{"status":"lost","eta":0,"stops":1}"#)
                    #expect(warned.status == 201, "\(warned.text)")
                }
                #expect(
                    try await database.count(
                        "SELECT count(*) FROM message_activity_log WHERE type = $1", [ActivityLogType.contentStateMismatch.rawValue]) == 1)
                let after = try await PrometheusScrape.scrape("\(call.base)/metrics")
                #expect(after.delta("livegate_content_state_mismatches_total", ["event": "update"], since: before) == 2)
                MetricsEndpointTests.expectDefinitionsHold(after)
            }
        }
    }

    static func put(_ call: DeviceTruthServeTests.Calls, _ path: String, _ body: String) async throws -> CurlHTTPClient.Response {
        try await CurlHTTPClient.request(
            "PUT", call.base + path,
            headers: ["Authorization": "Bearer \(call.tenant.secret)", "Content-Type": "application/json"], body: Data(body.utf8))
    }
}
