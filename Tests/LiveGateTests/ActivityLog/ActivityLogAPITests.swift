import APNsCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import PostgresClient
import TestSupport
import Testing

@Suite("GET /message_activity_log", .requiresPostgres)
struct ActivityLogAPITests {
    static let base = Date(timeIntervalSince1970: 1_763_800_000)  // 2025-11-22T08:26:40Z

    static func get(_ client: some TestClientProtocol, _ query: String, key: String) async throws -> TestResponse {
        try await client.execute(uri: "/message_activity_log" + query, method: .get, headers: .bearer(key))
    }

    static func ids(_ response: TestResponse) throws -> [String] {
        try #require(try response.json["entries"]?.arrayValue).compactMap { $0["id"]?.stringValue }
    }

    @Test func anEntryIsShownWithEveryField() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant(permissions: [.messageActivityLogRead])
            let dispatch = UUID()
            let id = try await database.seedLogEntry(
                tenant.app, type: .feedbackRemovedToken,
                message: "APNs says the device token is no longer valid (410 Unregistered); the token was removed.",
                at: Self.base.addingTimeInterval(0.123456), externalID: "fan-7", status: 410, reason: "Unregistered", dispatchID: dispatch)
            try await TestGateway.app(database).test(.router) { client in
                let response = try await Self.get(client, "", key: tenant.secret)
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                try expectJSON(
                    try response.json,
                    equals: """
                        {"entries":[{"id":"\(id)","time":"2025-11-22T08:26:40.123456Z","app_id":"\(tenant.app.identifier)",
                          "type":"APNS Feedback Removed Token errors",
                          "message":"APNs says the device token is no longer valid (410 Unregistered); the token was removed.",
                          "activity_id":"game-42","dispatch_id":"\(dispatch.uuidString.lowercased())","external_id":"fan-7",
                          "token":"…1a2b3c4d","apns_status":410,"apns_reason":"Unregistered",
                          "apns_id":"123e4567-e89b-12d3-a456-426614174000","details":null}],
                         "message":"success","next_cursor":null,"suppressed":[]}
                        """)
            }
        }
    }

    @Test func itNeedsTheReadPermission() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant(permissions: [.liveActivityUpdate, .liveActivityStart])
            try await TestGateway.app(database).test(.router) { client in
                let response = try await Self.get(client, "", key: tenant.secret)
                #expect(response.status == .forbidden)
                #expect(try response.json["message"]?.stringValue == "Access Denied")
                #expect(try await client.execute(uri: "/message_activity_log", method: .get).status == .unauthorized)
            }
        }
    }

    @Test func aKeySeesOnlyItsOwnWorkspace() async throws {
        try await TestDatabase.with { database in
            let mine = try await database.makeTenant(permissions: [.messageActivityLogRead])
            let theirs = try await database.makeTenant(permissions: [.messageActivityLogRead])
            let own = try await database.seedLogEntry(mine.app, at: Self.base)
            try await database.seedLogEntry(theirs.app, message: "theirs", at: Self.base.addingTimeInterval(1))
            try await TestGateway.app(database).test(.router) { client in
                #expect(try Self.ids(try await Self.get(client, "", key: mine.secret)) == [String(own)])
                // Their app is answered like an app that does not exist: nothing of theirs shows.
                let foreign = try await Self.get(client, "?app_id=\(theirs.app.identifier)", key: mine.secret)
                let unknown = try await Self.get(client, "?app_id=no-such-app", key: mine.secret)
                #expect(foreign.status == .badRequest)
                #expect(unknown.status == .badRequest)
                #expect(foreign.errors == ["app_id '\(theirs.app.identifier)' is not an app of this workspace"])
                #expect(!foreign.text.contains("theirs"))
            }
        }
    }

    @Test func everyFilterNarrowsTheEntries() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant(permissions: [.messageActivityLogRead])
            let other = try await database.makeApp(in: tenant.workspace)
            let a = try await database.seedLogEntry(tenant.app, type: .other, at: Self.base, activityID: "game-1", externalID: "fan-1")
            let b = try await database.seedLogEntry(
                tenant.app, type: .feedbackRemovedToken, at: Self.base.addingTimeInterval(3600), activityID: "game-2", externalID: "fan-2")
            let c = try await database.seedLogEntry(
                other, type: .noPushCredential, at: Self.base.addingTimeInterval(7200), activityID: "game-1", externalID: nil)
            let cases: [(String, [Int64])] = [
                ("", [c, b, a]),
                ("?app_id=\(tenant.app.identifier)", [b, a]),
                ("?app_id=\(other.identifier)", [c]),
                ("?type=APNS%20Feedback%20Removed%20Token%20errors", [b]),
                ("?type=Live%20Activity%20error%20(No%20push%20credential)", [c]),
                // Form encoding, as URLSearchParams and most clients write it.
                ("?type=Live+Activity+error+%28No+push+credential%29", [c]),
                ("?activity_id=game-1", [c, a]),
                ("?external_id=fan-2", [b]),
                ("?since=2025-11-22T09:26:40Z", [c, b]),
                ("?until=2025-11-22T09:26:40Z", [a]),
                ("?since=2025-11-22T09:00:00%2B0000&until=2025-11-22T10:00:00.000Z", [b]),
                ("?activity_id=game-1&app_id=\(tenant.app.identifier)", [a]),
                ("?external_id=nobody", []),
            ]
            try await TestGateway.app(database).test(.router) { client in
                for (query, expected) in cases {
                    let response = try await Self.get(client, query, key: tenant.secret)
                    #expect(response.status == .ok, "\(query): \(response.text)")
                    #expect(try Self.ids(response) == expected.map(String.init), "\(query)")
                }
            }
        }
    }

    /// A dispatch's page lists its entries with `dispatch_id`: only that dispatch's, with the other filters
    /// still applying, only within the key's workspace, and paged like the whole log.
    @Test func dispatchIDNarrowsToOneDispatch() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant(permissions: [.messageActivityLogRead])
            let theirs = try await database.makeTenant(permissions: [.messageActivityLogRead])
            let mine = UUID()
            let other = UUID()
            let foreign = UUID()
            // Two dispatches' entries interleaved, some sharing a time.
            var seeded: [Int64] = []
            for index in 0..<7 {
                let at = Self.base.addingTimeInterval(Double(index / 2))
                let type: ActivityLogType = index == 3 ? .feedbackRemovedToken : .other
                seeded.append(try await database.seedLogEntry(tenant.app, type: type, at: at, dispatchID: mine))
                try await database.seedLogEntry(tenant.app, at: at, dispatchID: other)
            }
            let ofMine = seeded
            try await database.seedLogEntry(tenant.app, at: Self.base, dispatchID: nil)
            try await database.seedLogEntry(theirs.app, message: "theirs", at: Self.base, dispatchID: foreign)
            let newestFirst = ofMine.sorted(by: >).map(String.init)
            try await TestGateway.app(database).test(.router) { client in
                // Any spelling of the UUID: the API answers lower case, people paste upper case.
                for id in [mine.uuidString.lowercased(), mine.uuidString] {
                    let response = try await Self.get(client, "?dispatch_id=\(id)", key: tenant.secret)
                    #expect(response.status == .ok, "\(response.text)")
                    #expect(try Self.ids(response) == newestFirst, "\(id)")
                    let dispatchIDs = try #require(try response.json["entries"]?.arrayValue).map { $0["dispatch_id"]?.stringValue }
                    #expect(Set(dispatchIDs) == [mine.uuidString.lowercased()])
                }
                let removed = try await Self.get(
                    client, "?dispatch_id=\(mine)&type=APNS%20Feedback%20Removed%20Token%20errors", key: tenant.secret)
                #expect(try Self.ids(removed) == [String(ofMine[3])])
                let elsewhere = try await Self.get(client, "?dispatch_id=\(mine)&activity_id=game-7", key: tenant.secret)
                #expect(try Self.ids(elsewhere) == [])
                // Another workspace's dispatch is like one that has no entries.
                let foreignPage = try await Self.get(client, "?dispatch_id=\(foreign)", key: tenant.secret)
                #expect(foreignPage.status == .ok)
                #expect(try Self.ids(foreignPage) == [])
                #expect(!foreignPage.text.contains("theirs"))

                var seen: [String] = []
                var cursor: String?
                var pages = 0
                repeat {
                    let query = "?dispatch_id=\(mine)&limit=3" + (cursor.map { "&cursor=\($0)" } ?? "")
                    let response = try await Self.get(client, query, key: tenant.secret)
                    #expect(response.status == .ok)
                    seen += try Self.ids(response)
                    cursor = try response.json["next_cursor"]?.stringValue
                    pages += 1
                } while cursor != nil && pages < 10
                #expect(pages == 3)
                #expect(seen == newestFirst)
            }
        }
    }

    @Test func pagesReturnEachEntryExactlyOnceNewestFirst() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant(permissions: [.messageActivityLogRead])
            var seeded: [Int64] = []
            // Ties on purpose: several entries share a time; the id breaks them.
            for index in 0..<23 {
                seeded.append(try await database.seedLogEntry(tenant.app, at: Self.base.addingTimeInterval(Double(index / 3))))
            }
            // Times never decrease as ids grow, so (time, id) descending is id descending.
            let newestFirst = seeded.sorted(by: >)
            try await TestGateway.app(database).test(.router) { client in
                var seen: [String] = []
                var cursor: String?
                var pages = 0
                repeat {
                    let query = "?limit=5" + (cursor.map { "&cursor=\($0)" } ?? "")
                    let response = try await Self.get(client, query, key: tenant.secret)
                    #expect(response.status == .ok)
                    let page = try Self.ids(response)
                    #expect(page.count <= 5)
                    seen += page
                    cursor = try response.json["next_cursor"]?.stringValue
                    pages += 1
                } while cursor != nil && pages < 10
                #expect(pages == 5)
                #expect(seen == newestFirst.map(String.init))
                #expect(Set(seen).count == 23)
            }
        }
    }

    @Test func badParametersAreEachNamed() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant(permissions: [.messageActivityLogRead])
            try await TestGateway.app(database).test(.router) { client in
                let response = try await Self.get(
                    client, "?type=Nope&limit=500&since=yesterday&cursor=zzz&color=red&dispatch_id=game-42", key: tenant.secret)
                #expect(response.status == .badRequest)
                #expect(
                    response.errors == [
                        "color is not a parameter of this endpoint",
                        "cursor is not one this endpoint gave out",
                        "dispatch_id must be a UUID, such as the dispatch_id a message call answered",
                        "limit must be a whole number from 1 to 100",
                        "since must be an ISO 8601 date-time with a zone, such as 2023-02-28T00:00:00+0000",
                        "type must be one of: 'Live Activity error (No push credential)', 'Live Activity error (Invalid push credential)', 'APNS Feedback Removed Token errors', 'Other Live Activity errors', 'Live Activity content-state mismatch', 'Live Activity priority lowered', 'Webhook endpoint paused', 'Webhook endpoint resumed'",
                    ])
                let backwards = try await Self.get(
                    client, "?since=2025-11-22T10:00:00Z&until=2025-11-22T09:00:00Z", key: tenant.secret)
                #expect(backwards.errors == ["since must be before until"])
            }
        }
    }

    /// ISO 8601 has a year 0 and PostgreSQL does not: such a bound answers, empty, instead of failing.
    @Test func boundsBeforeYearOneAreAnsweredNotFailed() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant(permissions: [.messageActivityLogRead])
            try await TestGateway.app(database).test(.router) { client in
                for query in [
                    "?until=0000-01-01T00:00:00Z", "?since=0000-01-01T00:00:00Z", "?since=0000-01-01T00:00:00Z&until=0000-06-01T00:00:00Z",
                ] {
                    let response = try await Self.get(client, query, key: tenant.secret)
                    #expect(response.status == .ok, "\(query): \(response.text)")
                }
            }
        }
    }

    @Test func hoursWithMoreThanAHundredEntriesShowTheirCount() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant(permissions: [.messageActivityLogRead])
            try await database.pool.query(
                """
                INSERT INTO message_activity_log_hours (app_id, type, hour, workspace_id, total) VALUES
                    ($1, 'Other Live Activity errors', '2025-11-22T08:00:00Z', $2, 150),
                    ($1, 'APNS Feedback Removed Token errors', '2025-11-22T08:00:00Z', $2, 40)
                """, [tenant.app.id, tenant.workspace.id])
            try await TestGateway.app(database).test(.router) { client in
                let response = try await Self.get(client, "", key: tenant.secret)
                try expectJSON(
                    try #require(try response.json["suppressed"]),
                    equals: """
                        [{"app_id":"\(tenant.app.identifier)","type":"Other Live Activity errors","hour":"2025-11-22T08:00:00.000000Z",
                          "total":150,"stored":100,"suppressed":50}]
                        """)
                let filtered = try await Self.get(client, "?type=APNS%20Feedback%20Removed%20Token%20errors", key: tenant.secret)
                #expect(try filtered.json["suppressed"]?.arrayValue?.isEmpty == true)
                let later = try await Self.get(client, "?since=2025-11-22T09:00:00Z", key: tenant.secret)
                #expect(try later.json["suppressed"]?.arrayValue?.isEmpty == true)
            }
        }
    }
}
