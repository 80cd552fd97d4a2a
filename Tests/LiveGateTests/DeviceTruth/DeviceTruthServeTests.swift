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

/// Device truth through a running `livegate serve`, the TLS simulator and its own database, every call
/// over HTTP as the SDK and the customer's server make them: what devices report changes what they are
/// sent, starts are confirmed or logged as unconfirmed, and the metrics move by exactly that.
@Suite("Device truth in a running gateway", .heavy, .requiresPostgres)
struct DeviceTruthServeTests {
    @Test func reportsChannelsAndStartConfirmationsThroughARunningGateway() async throws {
        try await SimulatorFixture.with { fixture in
            let simulator = fixture.simulator
            try await TestDatabase.with { database in
                let tenant = try await database.makeTenant(
                    bundleID: APNsSimulatorTests.bundleID, endpoint: fixture.endpoint, credentials: fixture.credentials)
                let gateway = try await DeliveryCrashTests.startGateway(
                    environment: LiveGateBinary.environment(
                        databaseURL: database.connectionString,
                        [
                            "LIVEGATE_APNS_CA_FILE": fixture.certificate.certificateFile,
                            // Long enough that phone-a's token, sent once the start is seen done, always
                            // comes within it however loaded the machine; the check still runs every second.
                            "LIVEGATE_DELIVERY_POLL_MILLISECONDS": "100", "LIVEGATE_START_CONFIRM_SECONDS": "5",
                        ]))
                defer { gateway.process.stop() }
                let call = Calls(base: "http://127.0.0.1:\(gateway.port)", tenant: tenant)
                let before = try await PrometheusScrape.scrape("\(call.base)/metrics")

                // An order with three devices: one follows the activity's channel, one does not, one is dismissed.
                let channel = try #require(
                    try await call.post("/live_activity/channels", #""activity_id":"order-9""#).json?["channel_id"] as? String)
                for (device, byte) in [("member", 0x31), ("plain", 0x32), ("dismissed", 0x33)] {
                    #expect(
                        try await call.sdk("/push_token_tag", #""device_id":"\#(device)","tag":"order-9","push_token":"\#(token(byte))""#)
                            .status == 201)
                }
                #expect(
                    try await call.sdk(
                        "/live_activity/device_state",
                        #""device_id":"member","activity_id":"order-9","state":"active","channel_id":"\#(channel)""#
                    ).status == 201)
                #expect(
                    try await call.sdk("/live_activity/device_state", #""device_id":"plain","activity_id":"order-9","state":"active""#)
                        .status == 201)
                #expect(
                    try await call.sdk(
                        "/live_activity/device_state", #""device_id":"dismissed","activity_id":"order-9","state":"dismissed""#
                    ).status == 201)
                #expect(
                    try await call.post("/messages/live_activity/update", #""activity_id":"order-9","content_state":{"eta":"12:40"}"#)
                        .status == 201)
                try await DeliveryCrashTests.waitUntil("the update is delivered", timeout: .seconds(60)) {
                    try await database.count("SELECT count(*) FROM dispatches WHERE status = 'done'") == 1
                }
                #expect(simulator.received.map(\.deviceToken) == [token(0x32)])
                #expect(simulator.broadcasts.map(\.channelID.rawValue) == [channel])

                // Two fans get a push-to-start; one's started activity registers its update token.
                for (device, user, byte) in [("phone-a", "fan-1", 0x7a), ("phone-b", "fan-2", 0x7b)] {
                    let registration =
                        #""device_id":"\#(device)","external_id":"\#(user)","activity_attributes_type":"MatchAttributes","push_to_start_token":"\#(token(byte))""#
                    #expect(try await call.sdk("/push_token_tag", registration).status == 201)
                }
                let start = try await call.post(
                    "/messages/live_activity/start",
                    #""activity_id":"match-1","activity_attributes_type":"MatchAttributes","activity_attributes":{"home":"A"},"content_state":{"score":"0-0"},"external_user_ids":["fan-1","fan-2"],"notification":{"alert":{"title":"Kick-off","body":"A v B"}}"#
                )
                #expect(start.status == 201, "\(start.text)")
                let startID = try #require(start.json?["dispatch_id"] as? String)
                try await DeliveryCrashTests.waitUntil("the start is delivered", timeout: .seconds(60)) {
                    try await database.count("SELECT count(*) FROM dispatches WHERE status = 'done'") == 2
                }
                #expect(
                    try await call.sdk("/push_token_tag", #""device_id":"phone-a","tag":"match-1","push_token":"\#(token(0x7c))""#).status
                        == 201)

                try await DeliveryCrashTests.waitUntil("the unconfirmed device is logged", timeout: .seconds(30)) {
                    try await database.count(
                        "SELECT count(*) FROM message_activity_log WHERE message LIKE 'Live Activity start not confirmed%'") == 1
                }
                let resource = try await call.get("/messages/live_activity/dispatches/\(startID)")
                let confirmation = try #require(resource.json?["confirmation"] as? [String: Any])
                #expect(confirmation["sent"] as? Int == 2)
                #expect(confirmation["confirmed"] as? Int == 1)
                #expect(confirmation["unconfirmed"] as? Int == 1)

                let activity = try await call.get("/live_activity/activities/order-9?app_id=\(tenant.app.identifier)")
                #expect(activity.status == 200, "\(activity.text)")
                let counts = try #require(activity.json?["counts"] as? [String: Any])
                #expect(counts["devices"] as? Int == 3)
                #expect(counts["with_token"] as? Int == 2)
                #expect(counts["channel_members"] as? Int == 1)

                var after = before
                try await DeliveryCrashTests.waitUntil("the metrics are recorded") {
                    after = try await PrometheusScrape.scrape("\(call.base)/metrics")
                    return after.delta("livegate_starts_unconfirmed_total", since: before) >= 1
                }
                #expect(after.delta("livegate_device_state_reports_total", ["state": "active"], since: before) == 2)
                #expect(after.delta("livegate_device_state_reports_total", ["state": "dismissed"], since: before) == 1)
                #expect(after.delta("livegate_channel_member_pushes_skipped_total", since: before) == 1)
                #expect(after.delta("livegate_starts_confirmed_total", since: before) == 1)
                #expect(after.delta("livegate_start_confirmation_duration_seconds_count", since: before) == 1)
                #expect(after.delta("livegate_starts_unconfirmed_total", since: before) == 1)
                MetricsEndpointTests.expectDefinitionsHold(after)
            }
        }
    }

    /// The customer's server (with the tenant's key) and the SDK (no key) over HTTP.
    struct Calls {
        let base: String
        let tenant: Tenant

        func post(_ path: String, _ fields: String) async throws -> CurlHTTPClient.Response {
            try await CurlHTTPClient.request(
                "POST", base + path, headers: ["Authorization": "Bearer \(tenant.secret)", "Content-Type": "application/json"],
                body: Data(#"{"app_id":"\#(tenant.app.identifier)",\#(fields)}"#.utf8))
        }

        func sdk(_ path: String, _ fields: String) async throws -> CurlHTTPClient.Response {
            try await CurlHTTPClient.request(
                "POST", base + path, headers: ["Content-Type": "application/json"],
                body: Data(#"{"app_id":"\#(tenant.app.identifier)",\#(fields)}"#.utf8))
        }

        func get(_ path: String) async throws -> CurlHTTPClient.Response {
            try await CurlHTTPClient.request("GET", base + path, headers: ["Authorization": "Bearer \(tenant.secret)"])
        }
    }
}
