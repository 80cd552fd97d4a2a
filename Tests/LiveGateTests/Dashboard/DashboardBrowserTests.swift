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

/// The dashboard's pages, driven in Debian's headless Chromium by `Tests/Browser/dashboard_test.py` (the
/// message activity log), `Tests/Browser/dispatch_test.py` (a dispatch's page) and
/// `Tests/Browser/activity_test.py` (an activity's page) — Python Selenium; `scripts/install-deps.sh test`
/// installs all three — against a gateway on a real socket.
/// Set `LIVEGATE_DASHBOARD_SCREENSHOT` to a .png path to keep screenshots of the pages.
@Suite("Dashboard in headless Chromium", .heavy, .requiresPostgres)
struct DashboardBrowserTests {
    static let script = Subprocess.repositoryRoot.appendingPathComponent("Tests/Browser/dashboard_test.py").path
    static let dispatchScript = Subprocess.repositoryRoot.appendingPathComponent("Tests/Browser/dispatch_test.py").path
    static let activityScript = Subprocess.repositoryRoot.appendingPathComponent("Tests/Browser/activity_test.py").path
    static let base = Date(timeIntervalSince1970: 1_763_798_400 + 5 * 60)  // 2025-11-22T08:05:00Z
    static let pageSize = 25  // what the page asks for (dashboard.js)
    static let activityPageSize = 50  // the devices the activity page asks for at once (activity.js)
    static let scriptMessage = #"<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">"#

    /// What the script checks the page against.
    struct Expected: Encodable {
        struct Entry: Encodable {
            let type: String
            let message: String
            let activity_id: String?
            let dispatch_id: String
        }
        struct SuppressedHour: Encodable {
            let total: Int
            let stored: Int
            let suppressed: Int
        }
        let key: String
        let forbidden_key: String
        let page_size: Int
        let ids_newest_first: [String]
        let entries: [String: Entry]
        let script_entry_id: String
        let markup_entry_id: String
        let filter_type: String
        /// `ActivityLogType.all`: what the type filter offers, in order.
        let types: [String]
        let apns_id: String
        let suppressed: SuppressedHour
    }

    @Test func anAdminReadsTheLogInABrowser() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant(permissions: [.messageActivityLogRead])
            let (_, forbidden) = try await database.makeKey(
                in: tenant.workspace, permissions: [.liveActivityUpdate, .liveActivityStart], name: "sender")
            let other = try await database.makeApp(in: tenant.workspace)

            // 60 entries a minute apart, the four types in turn, over two apps; the newest two carry markup.
            var entries: [String: Expected.Entry] = [:]
            var ids: [String] = []
            var scriptID = ""
            var markupID = ""
            for index in 0..<60 {
                let type = ActivityLogType.all[index % 4]
                let (status, reason, token): (Int?, String?, String?) =
                    switch type {
                    case .noPushCredential: (nil, nil, nil)
                    case .invalidPushCredential: (403, "InvalidProviderToken", "9f8e7d6c")
                    case .feedbackRemovedToken: (410, "Unregistered", "1a2b3c4d")
                    default: (400, "BadTopic", "0a1b2c3d")
                    }
                let message = index == 59 ? Self.scriptMessage : "Entry \(index): \(type.rawValue.lowercased())."
                let activityID = index == 58 ? "<b>game-58</b>" : "game-\(index % 5)"
                let dispatch = UUID()
                let id = String(
                    try await database.seedLogEntry(
                        index % 3 == 0 ? other : tenant.app, type: type, message: message,
                        at: Self.base.addingTimeInterval(Double(index * 60)), activityID: activityID,
                        externalID: index % 4 == 1 ? nil : "fan-\(index % 7)", token: token, status: status, reason: reason,
                        dispatchID: dispatch))
                entries[id] = .init(
                    type: type.rawValue, message: message, activity_id: activityID, dispatch_id: dispatch.uuidString.lowercased())
                ids.append(id)
                if index == 59 { scriptID = id }
                if index == 58 { markupID = id }
            }
            // One hour with more entries of a type than are stored.
            try await database.pool.query(
                """
                INSERT INTO message_activity_log_hours (app_id, type, hour, workspace_id, total)
                VALUES ($1, 'Other Live Activity errors', '2025-11-22T08:00:00Z', $2, 150)
                """, [tenant.app.id, tenant.workspace.id])

            let expected = Expected(
                key: tenant.secret, forbidden_key: forbidden, page_size: Self.pageSize, ids_newest_first: ids.reversed(),
                entries: entries, script_entry_id: scriptID, markup_entry_id: markupID,
                filter_type: ActivityLogType.feedbackRemovedToken.rawValue, types: ActivityLogType.all.map(\.rawValue),
                apns_id: "123e4567-e89b-12d3-a456-426614174000",
                suppressed: .init(total: 150, stored: 100, suppressed: 50))
            let json = String(decoding: try JSONEncoder().encode(expected), as: UTF8.self)

            let output = try await LiveGatewayServer.with(database: database) { (baseURL: String) async throws -> Subprocess.Output in
                try await Subprocess.run("/usr/bin/env", ["python3", Self.script, baseURL, json])
            }
            #expect(
                output.status == 0, "dashboard_test.py exited \(output.status)\n--- stdout\n\(output.stdout)\n--- stderr\n\(output.stderr)")
        }
    }

    /// What `dispatch_test.py` checks the dispatch page against.
    struct ExpectedDispatches: Encodable {
        struct Entry: Encodable {
            let type: String
            let token: String
        }
        struct Counts: Encodable {
            let sent: Int
            let failed: Int
            let retried: Int
            let removed: Int
        }
        let key: String
        let app_id: String
        let superseded: String
        let newer: String
        let scheduled: String
        let scheduled_activity_id: String
        let send_at: String
        let unknown: String
        let counts: Counts
        let entries: [Entry]
        let go_file: String
    }

    /// Real dispatches, accepted through the API and delivered to the APNs simulator: an update superseded
    /// by a newer one, the newer one watched from pending to done (delivery starts once the page watches
    /// it), and a scheduled end cancelled from its page.
    @Test func anAdminFollowsADispatchInABrowser() async throws {
        try await DeliveryHarness.with { harness in
            let (_, key) = try await harness.database.makeKey(
                in: harness.tenant.workspace, permissions: [.messageActivityLogRead, .liveActivityUpdate], name: "dashboard")
            // Four devices: one answered at once, one after a retry, one dead, one refused.
            let devices = [token(0x01), token(0x02), token(0x03), token(0x04)]
            for (index, device) in devices.enumerated() {
                try await harness.register(device, device: "phone-\(index)")
            }
            harness.simulator.setBehavior(.failFirst(times: 1, status: 500, reason: "InternalServerError"), for: devices[1])
            harness.simulator.setBehavior(.unregistered, for: devices[2])
            harness.simulator.setBehavior(.fail(status: 400, reason: "DeviceTokenNotForTopic"), for: devices[3])

            // Delivery is not running: the first stays pending until the second supersedes it at commit.
            let superseded = try await harness.update(#""content_state":{"minute":1}"#)
            let newer = try await harness.update(#""content_state":{"minute":2}"#)
            let markup = "<img src=x onerror=window.__pwned=1>"
            let sendAt = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 3600).rounded(.down))
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            let scheduled = try await harness.update(
                #""content_state":{"minute":90},"end_activity":true,"send_at":"\#(formatter.string(from: sendAt))""#,
                activityID: markup)

            let goFile = FileManager.default.temporaryDirectory.appendingPathComponent("livegate-dispatch-go-\(UUID())").path
            defer { try? FileManager.default.removeItem(atPath: goFile) }
            let expected = ExpectedDispatches(
                key: key, app_id: harness.tenant.app.identifier, superseded: superseded, newer: newer, scheduled: scheduled,
                scheduled_activity_id: markup, send_at: formatter.string(from: sendAt), unknown: UUID().uuidString.lowercased(),
                counts: .init(sent: 2, failed: 2, retried: 1, removed: 1),
                entries: [
                    .init(type: ActivityLogType.feedbackRemovedToken.rawValue, token: "…" + devices[2].suffix(8)),
                    .init(type: ActivityLogType.other.rawValue, token: "…" + devices[3].suffix(8)),
                ],
                go_file: goFile)
            let json = String(decoding: try JSONEncoder().encode(expected), as: UTF8.self)

            let engine = harness.engine
            let output = try await LiveGatewayServer.with(database: harness.database) {
                (baseURL: String) async throws -> Subprocess.Output in
                try await withThrowingTaskGroup(of: Subprocess.Output?.self) { group in
                    group.addTask {
                        // Delivers once the script says the page is watching the pending dispatch.
                        while !FileManager.default.fileExists(atPath: goFile) {
                            try await Task.sleep(for: .milliseconds(50))
                        }
                        try await engine.deliverDue()
                        return nil
                    }
                    group.addTask { try await Subprocess.run("/usr/bin/env", ["python3", Self.dispatchScript, baseURL, json]) }
                    while let finished = try await group.next() {
                        // The script is done: a delivery never asked for is not waited for.
                        if let output = finished {
                            group.cancelAll()
                            return output
                        }
                    }
                    throw Subprocess.Failure(description: "dispatch_test.py did not run")
                }
            }
            #expect(
                output.status == 0, "dispatch_test.py exited \(output.status)\n--- stdout\n\(output.stdout)\n--- stderr\n\(output.stderr)")
            let delivered = try await harness.dispatch(newer)
            #expect(try delivered.require("status", as: String.self) == "done")
            #expect(try delivered.require("sent_count", as: Int.self) == 2)
        }
    }

    /// What `activity_test.py` checks the activity page against: the activity resource's own answers, as
    /// JSON text, for the two pages of devices the page shows.
    struct ExpectedActivity: Encodable {
        let key: String
        /// May read the log and dispatches, not activities.
        let forbidden_key: String
        let page_size: Int
        let first_page: String
        let second_page: String
        let markup_external_id: String
        let markup_activity_id: String
    }

    /// An activity with a bit of everything, made through the API and delivered to the APNs simulator: a
    /// start confirmed by the update token it brought, a channel one device follows (its user allows
    /// frequent updates), a device that dismissed the activity (its user does not), one APNs says is dead,
    /// an update to them all, and more devices than one page.
    @Test func anAdminLooksIntoAnActivityInABrowser() async throws {
        try await DeliveryHarness.with { harness in
            let (_, key) = try await harness.database.makeKey(
                in: harness.tenant.workspace, permissions: [.liveActivityRead, .messageActivityLogRead], name: "dashboard")
            let (_, forbidden) = try await harness.database.makeKey(
                in: harness.tenant.workspace, permissions: [.messageActivityLogRead], name: "log reader")
            // First, while the simulator has received nothing: the start checks it reached one phone.
            _ = try await harness.startDeliveredToFan(activityID: "game-42")
            try await harness.register(token(0x7b), device: "phone-a", tag: "game-42")

            let channel = try await harness.makeChannel()
            let markup = "<img src=x onerror=window.__pwned=1>"
            try await harness.register(token(0x61), device: "member", externalID: markup)
            try await harness.register(token(0x62), device: "plain", externalID: "fan-2")
            try await harness.register(token(0x63), device: "gone")
            try await harness.register(token(0x64), device: "dead")
            try await harness.report(
                "active", device: "member", extra: #","channel_id":"\#(channel.rawValue)","frequent_pushes_enabled":true"#)
            try await harness.report("dismissed", device: "gone", extra: #","frequent_pushes_enabled":false"#)
            harness.simulator.setBehavior(.unregistered, for: token(0x64))
            try await harness.update(#""content_state":{"score":"1-0"}"#)
            try await harness.engine.deliverDue()
            try await harness.database.insertActivityTokens(
                (1...(Self.activityPageSize + 10)).map { token(numbered: $0) }, app: harness.tenant.app, activityID: "game-42")

            // What the page should show: the resource's answers, a page of devices at a time, as it asks.
            let first = try await harness.activityResource(query: "&limit=\(Self.activityPageSize)")
            let cursor = try #require(first["next_cursor"]?.stringValue)
            let second = try await harness.activityResource(query: "&limit=\(Self.activityPageSize)&cursor=\(cursor)")
            #expect(second["next_cursor"] == .null)
            #expect(first["devices"]?.arrayValue?.count == Self.activityPageSize)
            let dispatches = try #require(first["dispatches"]?.arrayValue)
            #expect(dispatches.compactMap { $0["event"]?.stringValue }.sorted() == ["start", "update"])
            #expect(dispatches.contains { $0["confirmation"]?["confirmed"] == .integer(1) }, "the start was confirmed")
            #expect(first["channel"]?["channel_id"]?.stringValue == channel.rawValue)

            let expected = ExpectedActivity(
                key: key, forbidden_key: forbidden, page_size: Self.activityPageSize, first_page: first.description,
                second_page: second.description, markup_external_id: markup, markup_activity_id: markup)
            let json = String(decoding: try JSONEncoder().encode(expected), as: UTF8.self)

            let output = try await LiveGatewayServer.with(database: harness.database) {
                (baseURL: String) async throws -> Subprocess.Output in
                try await Subprocess.run("/usr/bin/env", ["python3", Self.activityScript, baseURL, json])
            }
            #expect(
                output.status == 0, "activity_test.py exited \(output.status)\n--- stdout\n\(output.stdout)\n--- stderr\n\(output.stderr)")
        }
    }
}
