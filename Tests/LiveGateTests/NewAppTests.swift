import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import TestSupport
import Testing

/// An app is usable the moment `livegate app create` returns, on every route that names an `app_id`,
/// even while a gateway believes a snapshot of the known ids taken before the app existed.
@Suite("A new app works at once", .heavy, .requiresPostgres)
struct NewAppTests {
    @Test func everyRouteTakesAnAppRightAfterTheCLICreatesIt() async throws {
        try await TestDatabase.with { database in
            let url = database.connectionString
            let workspace = try await database.makeWorkspace()
            let key = try await LiveGateBinary.run(
                [
                    "key", "create", "--workspace", workspace.id.uuidString, "--name", "backend", "--permissions",
                    "messages.live_activity.update,messages.live_activity.start,live_activity.channels.manage",
                ],
                databaseURL: url)
            #expect(key.status == 0, "\(key.stderr)")
            let authorization = ["Authorization": "Bearer \(key.lastLine)", "Content-Type": "application/json"]

            // Lookups believed for a minute: the snapshot of known app ids is taken by the first call.
            let port = LiveGateBinary.freePort()
            let server = try LiveGateBinary.serve(port: port, databaseURL: url, environment: ["LIVEGATE_LOOKUP_CACHE_SECONDS": "60"])
            defer { server.terminate() }
            try await CLITests.waitUntilHealthy(port: port)
            let base = "http://127.0.0.1:\(port)"
            let before = try await Self.update(base, appID: "orders-app", headers: authorization)
            #expect(before.status == 400)
            #expect(before.text.contains("Unknown app_id"))

            let app = try await LiveGateBinary.run(
                [
                    "app", "create", "--workspace", workspace.id.uuidString, "--name", "Orders", "--bundle-id", "com.example.orders",
                    "--apns-endpoint", "sandbox", "--app-id", "orders-app",
                ],
                databaseURL: url)
            #expect(app.status == 0, "\(app.stderr)")

            async let update = Self.update(base, appID: "orders-app", headers: authorization)
            async let start = CurlHTTPClient.request(
                "POST", "\(base)/messages/live_activity/start", headers: authorization,
                body: Data(
                    #"{"app_id":"orders-app","activity_id":"order-1","activity_attributes_type":"OrderAttributes","activity_attributes":{},"content_state":{},"notification":{"alert":{"title":"Order","body":"Placed"}},"external_user_ids":["user-1"]}"#
                        .utf8))
            async let register = CurlHTTPClient.request(
                "POST", "\(base)/push_token_tag", headers: ["Content-Type": "application/json"],
                body: Data(
                    #"{"app_id":"orders-app","device_id":"device-1","tag":"order-1","push_token":"\#(String(repeating: "ab", count: 32))"}"#
                        .utf8))
            async let channel = CurlHTTPClient.request(
                "GET", "\(base)/push_channel?app_id=orders-app&activity_id=order-1", headers: authorization)
            async let channels = CurlHTTPClient.request(
                "GET", "\(base)/live_activity/channels?app_id=orders-app", headers: authorization)
            let answers = try await [
                ("update", update), ("start", start), ("push_token_tag", register), ("push_channel", channel),
                ("channels", channels),
            ]
            for (route, answer) in answers {
                #expect(!answer.text.contains("Unknown app_id"), "\(route): \(answer.status) \(answer.text)")
            }
            // What each route answers for an app with no devices yet: the app itself was found.
            #expect(
                answers.map { "\($0.0) \($0.1.status)" } == [
                    "update 201", "start 201", "push_token_tag 201", "push_channel 404", "channels 200",
                ], "\(answers.map { $0.1.text })")
        }
    }

    static func update(_ base: String, appID: String, headers: [String: String]) async throws -> CurlHTTPClient.Response {
        try await CurlHTTPClient.request(
            "POST", "\(base)/messages/live_activity/update", headers: headers,
            body: Data(#"{"app_id":"\#(appID)","activity_id":"order-1","content_state":{"step":1}}"#.utf8))
    }
}
