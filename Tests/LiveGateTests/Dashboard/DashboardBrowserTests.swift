import Foundation
import LiveGate
import PostgresClient
import Testing
import TestSupport

/// The message activity log page, driven in Debian's headless Chromium by `Tests/Browser/dashboard_test.py`
/// (Python Selenium; `scripts/install-deps.sh test` installs all three) against a gateway on a real socket.
/// Set `LIVEGATE_DASHBOARD_SCREENSHOT` to a .png path to keep a screenshot of the page.
@Suite("Dashboard in headless Chromium")
struct DashboardBrowserTests {
    static let script = Subprocess.repositoryRoot.appendingPathComponent("Tests/Browser/dashboard_test.py").path
    static let base = Date(timeIntervalSince1970: 1_763_798_400 + 5 * 60)  // 2025-11-22T08:05:00Z
    static let pageSize = 25  // what the page asks for (dashboard.js)
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
            var scriptID = "", markupID = ""
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
                filter_type: ActivityLogType.feedbackRemovedToken.rawValue, types: ActivityLogType.all.map(\.rawValue), apns_id: "123e4567-e89b-12d3-a456-426614174000",
                suppressed: .init(total: 150, stored: 100, suppressed: 50))
            let json = String(decoding: try JSONEncoder().encode(expected), as: UTF8.self)

            let output = try await LiveGatewayServer.with(database: database) { (baseURL: String) async throws -> Subprocess.Output in
                try await Subprocess.run("/usr/bin/env", ["python3", Self.script, baseURL, json])
            }
            #expect(output.status == 0, "dashboard_test.py exited \(output.status)\n--- stdout\n\(output.stdout)\n--- stderr\n\(output.stderr)")
        }
    }
}
