import APNsCore
import Foundation
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

@Suite("POST /messages/live_activity/update", .requiresPostgres)
struct LiveActivityUpdateTests {
    static let path = "/messages/live_activity/update"
    static let sword = #"{"currentHealthLevel":0.941,"eventDescription":"Power Panda found a sword!"}"#

    static func body(_ tenant: Tenant, _ fields: String) -> String {
        #"{"app_id":"\#(tenant.app.identifier)","activity_id":"adventure-1",\#(fields)}"#
    }

    @Test func acceptedUpdateIsCommittedWithApplesPayload() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await database.registerToken(tenant, tag: "adventure-1", device: "iphone-1", token: "aabb")
            let response = try await TestGateway.app(database, clock: pinnedClock).test(.router) { client async throws in
                try await client.post(Self.path, Self.body(tenant, #""content_state":\#(Self.sword)"#), key: tenant.secret)
            }
            #expect(response.status == .created)
            let dispatchID = try #require(response.dispatchID)
            #expect(response.text == #"{"dispatch_id":"\#(dispatchID)","message":"success"}"#)
            let row = try await database.pool.query(
                """
                SELECT event, activity_id, external_id, priority::int AS priority, status,
                       extract(epoch FROM expires_at)::bigint AS expires, workspace_id, app_id
                FROM dispatches WHERE id = $1
                """, [dispatchID])[0]
            #expect(try row.require("event", as: String.self) == "update")
            #expect(try row.require("activity_id", as: String.self) == "adventure-1")
            #expect(try row.decode("external_id", as: String.self) == nil)
            #expect(try row.require("priority", as: Int.self) == 10)
            #expect(try row.require("status", as: String.self) == "pending")
            #expect(try row.require("expires", as: Int64.self) == 1_685_952_000 + 12 * 3600)
            #expect(try row.require("app_id", as: UUID.self) == tenant.app.id)
            try expectJSON(
                try await database.payload(ofDispatch: dispatchID),
                equals:
                    #"{ "aps": { "timestamp": 1685952000, "event": "update", "content-state": { "currentHealthLevel": 0.941, "eventDescription": "Power Panda found a sword!" } } }"#
            )
        }
    }

    /// Each of Apple's WWDC23 examples, produced from the Braze-shaped request that means the same.
    static let goldenCases: [(name: String, fields: String, expected: String)] = [
        (
            "alert",
            #""content_state":{"currentHealthLevel":0.0,"eventDescription":"Power Panda has been knocked down!"},"notification":{"alert":{"title":"Power Panda is knocked down!","body":"Use a potion to heal Power Panda!","sound":"default"}}"#,
            #"{ "aps": { "timestamp": 1685952000, "event": "update", "content-state": { "currentHealthLevel": 0.0, "eventDescription": "Power Panda has been knocked down!" }, "alert": { "title": "Power Panda is knocked down!", "body": "Use a potion to heal Power Panda!", "sound": "default" } } }"#
        ),
        (
            "localized alert",
            #""content_state":{"currentHealthLevel":0.0,"eventDescription":"Power Panda has been knocked down!"},"notification":{"alert":{"title_loc_key":"%@ is knocked down!","title_loc_args":["Power Panda"],"loc_key":"Use a potion to heal %@!","loc_args":["Power Panda"],"sound":"HeroDown.mp4"}}"#,
            #"{ "aps": { "timestamp": 1685952000, "event": "update", "content-state": { "currentHealthLevel": 0.0, "eventDescription": "Power Panda has been knocked down!" }, "alert": { "title": { "loc-key": "%@ is knocked down!", "loc-args": ["Power Panda"] }, "body": { "loc-key": "Use a potion to heal %@!", "loc-args": ["Power Panda"] }, "sound": "HeroDown.mp4" } } }"#
        ),
        (
            "end with dismissal date",
            #""end_activity":true,"dismissal_date":"2023-06-05T10:00:00Z","content_state":{"currentHealthLevel":0.23,"eventDescription":"Adventure over! Power Panda is taking a nap."}"#,
            #"{ "aps": { "timestamp": 1685952000, "event": "end", "dismissal-date": 1685959200, "content-state": { "currentHealthLevel": 0.23, "eventDescription": "Adventure over! Power Panda is taking a nap." } } }"#
        ),
        (
            "stale date",
            #""stale_date":"2023-06-05T12:00:00+02:00","content_state":{"currentHealthLevel":0.79,"eventDescription":"Egghead is in the woods and lost connection."}"#,
            #"{ "aps": { "timestamp": 1685952000, "event": "update", "stale-date": 1685959200, "content-state": { "currentHealthLevel": 0.79, "eventDescription": "Egghead is in the woods and lost connection." } } }"#
        ),
        (
            "relevance score",
            #""relevance_score":100,"content_state":{"currentHealthLevel":0.941,"eventDescription":"Power Panda found a sword!"}"#,
            #"{ "aps": { "timestamp": 1685952000, "event": "update", "relevance-score": 100, "content-state": { "currentHealthLevel": 0.941, "eventDescription": "Power Panda found a sword!" } } }"#
        ),
    ]

    @Test(arguments: goldenCases)
    func applesExamplesFromBrazeRequests(name: String, fields: String, expected: String) async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            let response = try await TestGateway.app(database, clock: pinnedClock).test(.router) { client async throws in
                try await client.post(Self.path, Self.body(tenant, fields), key: tenant.secret)
            }
            #expect(response.status == .created, "\(name): \(response.text)")
            try expectJSON(try await database.payload(ofDispatch: try #require(response.dispatchID)), equals: expected)
        }
    }

    @Test func contentStateIsPassedThroughByteForByte() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            let state = #"{"z":1e3,"a":[0.10,-0,"\u00e9\ud83d\ude00"],"m":{"deep":{"er":null}}}"#
            let response = try await TestGateway.app(database).test(.router) { client async throws in
                try await client.post(Self.path, Self.body(tenant, #""content_state":\#(state)"#), key: tenant.secret)
            }
            let dispatchID = try #require(response.dispatchID)
            let stored: String = try await database.pool.query(
                "SELECT payload FROM dispatches WHERE id = $1", [dispatchID])[0].require("payload")
            // Key order and number spelling kept; escapes may become the characters they stand for.
            #expect(stored.contains(#""content-state":{"z":1e3,"a":[0.10,-0,"é😀"],"m":{"deep":{"er":null}}}"#))
        }
    }

    @Test func brazesDocumentedDateFormsAreAccepted() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await TestGateway.app(database, clock: pinnedClock).test(.router) { client async throws in
                for date in ["2023-02-28T00:00:00+0000", "2023-02-28T00:00:00+00:00", "2023-02-28T00:00:00Z", "2023-02-28T00:00:00.000Z"] {
                    let response = try await client.post(
                        Self.path, Self.body(tenant, #""content_state":{},"end_activity":true,"dismissal_date":"\#(date)""#),
                        key: tenant.secret)
                    #expect(response.status == .created, "\(date)")
                    let payload = try await database.payload(ofDispatch: try #require(response.dispatchID))
                    #expect(payload["aps"]?["dismissal-date"]?.numberLexeme == "1677542400", "\(date)")
                    #expect(payload["aps"]?["event"]?.stringValue == "end")
                }
            }
        }
    }

    @Test func dismissalDateWithoutEndIsAcceptedWithAWarning() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await database.registerToken(tenant, tag: "adventure-1", device: "iphone-1", token: "aabb")
            let response = try await TestGateway.app(database).test(.router) { client async throws in
                try await client.post(
                    Self.path, Self.body(tenant, #""content_state":{},"dismissal_date":"2023-02-28T00:00:00+0000""#), key: tenant.secret)
            }
            #expect(response.status == .created)
            #expect(response.warnings == ["dismissal_date was ignored: it applies only with end_activity: true"])
            #expect(!response.has(key: "errors"))
            let payload = try await database.payload(ofDispatch: try #require(response.dispatchID))
            #expect(payload["aps"]?["dismissal-date"] == nil)
        }
    }

    /// Braze answers plain success when no device is under the tag yet, and Braze clients read any
    /// non-empty `errors` as a failed call: the notice goes in `warnings`.
    @Test func noRegisteredTokenIsAWarningNotAnError() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await database.registerToken(tenant, tag: "adventure-1", device: "iphone-1", token: "aabb", externalID: "fan-1")
            try await TestGateway.app(database).test(.router) { client async throws in
                let other = try await client.post(
                    Self.path, Self.body(tenant, #""content_state":{}"#).replacingOccurrences(of: "adventure-1", with: "adventure-2"),
                    key: tenant.secret)
                #expect(other.status == .created)
                #expect(other.warnings == ["no push token is registered for activity_id 'adventure-2' yet"])
                #expect(!other.has(key: "errors"))

                let narrowedToSomeoneElse = try await client.post(
                    Self.path, Self.body(tenant, #""content_state":{},"external_id":"fan-2""#), key: tenant.secret)
                #expect(narrowedToSomeoneElse.status == .created)
                #expect(!narrowedToSomeoneElse.has(key: "errors"))
                #expect(
                    narrowedToSomeoneElse.warnings == [
                        "no device of external_id 'fan-2' has registered a push token for activity_id 'adventure-1' yet"
                    ])

                let narrowed = try await client.post(
                    Self.path, Self.body(tenant, #""content_state":{},"external_id":"fan-1""#), key: tenant.secret)
                #expect(narrowed.status == .created)
                #expect(!narrowed.has(key: "errors") && !narrowed.has(key: "warnings"))
            }
            // Even with nobody registered, the dispatch is kept: the SDK may register before delivery.
            #expect(try await database.count("SELECT count(*) FROM dispatches") == 3)
            #expect(try await database.count("SELECT count(*) FROM dispatches WHERE external_id = 'fan-1'") == 1)
        }
    }

    static let priorityCases: [(fields: String, priority: Int)] = [
        (#""content_state":{}"#, 10),
        (#""content_state":{},"notification":{"content-available":true}"#, 5),
        (#""content_state":{},"notification":{"content-available":true,"apns_priority":10}"#, 10),
        (#""content_state":{},"notification":{"apns_priority":5}"#, 5),
        (#""content_state":{},"priority":5"#, 5),
        (#""content_state":{},"priority":10,"notification":{"apns_priority":10,"content-available":true}"#, 10),
    ]

    @Test(arguments: priorityCases)
    func priorityRules(fields: String, priority: Int) async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            let response = try await TestGateway.app(database).test(.router) { client async throws in
                try await client.post(Self.path, Self.body(tenant, fields), key: tenant.secret)
            }
            #expect(response.status == .created)
            let dispatchID = try #require(response.dispatchID)
            #expect(try await database.count("SELECT priority FROM dispatches WHERE id = $1", [dispatchID]) == priority)
        }
    }

    static let invalidBodies: [(fields: String, error: String)] = [
        (#""activity_id":null,"content_state":{}"#, "activity_id is required"),
        (#""activity_id":"","content_state":{}"#, "activity_id must not be empty"),
        (
            #""activity_id":"\#(String(repeating: "é", count: 257))","content_state":{}"#,
            "activity_id must be at most 256 characters, got 257"
        ),
        (#""app_id":5,"content_state":{}"#, "app_id must be a string, got number"),
        (#""x":1"#, "content_state is required"),
        (#""content_state":"{}""#, "content_state must be an object, got string"),
        (#""content_state":{},"end_activity":"yes""#, "end_activity must be true or false, got string"),
        (
            #""content_state":{},"stale_date":"tomorrow""#,
            "stale_date must be an ISO-8601 date-time with a time zone, such as 2023-02-28T00:00:00+0000; got 'tomorrow'"
        ),
        (
            #""content_state":{},"dismissal_date":"2023-02-28T00:00:00""#,
            "dismissal_date must be an ISO-8601 date-time with a time zone, such as 2023-02-28T00:00:00+0000; got '2023-02-28T00:00:00'"
        ),
        (
            #""content_state":{},"dismissal_date":1677542400"#,
            "dismissal_date must be an ISO-8601 date-time with a time zone, such as 2023-02-28T00:00:00+0000; got number"
        ),
        (#""content_state":{},"relevance_score":"high""#, "relevance_score must be a number, got string"),
        (#""content_state":{},"priority":7"#, "priority must be 5 or 10"),
        (#""content_state":{},"notification":{"apns_priority":"10"}"#, "notification.apns_priority must be 5 or 10"),
        (
            #""content_state":{},"priority":5,"notification":{"apns_priority":10}"#,
            "priority (5) and notification.apns_priority (10) disagree: give one"
        ),
        (#""content_state":{},"notification":[]"#, "notification must be an object, got array"),
        (
            #""content_state":{},"notification":{"alert":{"title":"a","title_loc_key":"b"}}"#,
            "give notification.alert.title or notification.alert.title_loc_key, not both"
        ),
        (
            #""content_state":{},"notification":{"alert":{"loc_args":["x"]}}"#,
            "notification.alert.loc_args needs notification.alert.loc_key"
        ),
        (
            #""content_state":{},"notification":{"alert":{"title_loc_key":"k","title_loc_args":[1]}}"#,
            "notification.alert.title_loc_args[0] must be a non-empty string of at most 1024 characters"
        ),
        (#""content_state":{},"external_id":"""#, "external_id must not be empty"),
        (#""content_state":{},"external_id":"fan\u0000-7""#, "external_id must not contain NUL characters"),
    ]

    @Test(arguments: invalidBodies)
    func eachInvalidFieldIs400AndCommitsNothing(fields: String, error: String) async throws {
        try await expectRefused(Self.path, { Self.body($0, fields) }, error: error)
    }

    @Test func severalProblemsAreListedTogether() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await TestGateway.app(database).test(.router) { client async throws in
                let response = try await client.post(Self.path, #"{"activity_id":3,"priority":1}"#, key: tenant.secret)
                #expect(response.status == .badRequest)
                #expect(
                    response.errors == [
                        "app_id is required", "activity_id must be a string, got number", "content_state is required",
                        "priority must be 5 or 10",
                    ])
                #expect(try response.json["message"]?.stringValue == "Invalid request: 4 problems, listed in errors")
            }
        }
    }

    @Test func payloadOverAPNsLimitIs400AndCommitsNothing() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            let big = String(repeating: "x", count: 4000)
            try await TestGateway.app(database).test(.router) { client async throws in
                let response = try await client.post(
                    Self.path, Self.body(tenant, #""content_state":{"story":"\#(big)"},"notification":{"alert":{"body":"\#(big)"}}"#),
                    key: tenant.secret)
                #expect(response.status == .badRequest)
                let message = try #require(try response.json["message"]?.stringValue)
                #expect(message.hasPrefix("The APNs payload would be "))
                #expect(message.hasSuffix(" bytes; APNs takes at most 4096"))
            }
            #expect(try await database.count("SELECT count(*) FROM dispatches") == 0)
        }
    }

    @Test func anotherWorkspacesAppIsAnsweredLikeAnUnknownOne() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            let stranger = try await database.makeTenant()
            try await TestGateway.app(database).test(.router) { client async throws in
                for appID in [stranger.app.identifier, "no-such-app"] {
                    let response = try await client.post(
                        Self.path, #"{"app_id":"\#(appID)","activity_id":"a","content_state":{}}"#, key: tenant.secret)
                    #expect(response.status == .badRequest)
                    #expect(
                        response.text
                            == #"{"errors":["no app has app_id '\#(appID)' in this API key's workspace"],"message":"Unknown app_id"}"#)
                }
            }
            #expect(try await database.count("SELECT count(*) FROM dispatches") == 0)
        }
    }

    @Test func needsTheUpdatePermission() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant(permissions: [.liveActivityStart, .messageActivityLogRead])
            try await TestGateway.app(database).test(.router) { client async throws in
                let response = try await client.post(Self.path, Self.body(tenant, #""content_state":{}"#), key: tenant.secret)
                #expect(response.status == .forbidden)
                #expect(
                    response.text
                        == #"{"errors":["this API key does not have the messages.live_activity.update permission"],"message":"Access Denied"}"#
                )
                let anonymous = try await client.post(Self.path, Self.body(tenant, #""content_state":{}"#), key: nil)
                #expect(anonymous.status == .unauthorized)
            }
            #expect(try await database.count("SELECT count(*) FROM dispatches") == 0)
        }
    }
}
