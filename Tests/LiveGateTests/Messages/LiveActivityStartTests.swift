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

@Suite("POST /messages/live_activity/start", .requiresPostgres)
struct LiveActivityStartTests {
    static let path = "/messages/live_activity/start"
    static let alert = #""notification":{"alert":{"title":"Power Panda sets out!","body":"Follow the adventure live."}}"#

    static func body(_ tenant: Tenant, _ fields: String) -> String {
        #"{"app_id":"\#(tenant.app.identifier)","activity_id":"adventure-9","activity_attributes_type":"AdventureAttributes","activity_attributes":{"currentAdventure":"Dragon Cave"},"content_state":{"currentHealthLevel":1.0,"eventDescription":"Ready!"},\#(Self.alert),\#(fields)}"#
    }

    @Test func startsForNamedUsersWithApplesStartPayload() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await database.registerPushToStart(
                tenant, type: "AdventureAttributes", device: "iphone", token: "a1a1", externalID: "fan-1")
            try await database.registerPushToStart(tenant, type: "AdventureAttributes", device: "ipad", token: "a2a2", externalID: "fan-1")
            try await database.registerPushToStart(
                tenant, type: "AdventureAttributes", device: "phone-b", token: "b1b1", alias: UserAlias(label: "install", name: "anon-b"))
            // Same user, another attributes type: not a target.
            try await database.registerPushToStart(tenant, type: "MatchAttributes", device: "iphone", token: "c1c1", externalID: "fan-1")
            let response = try await TestGateway.app(database, clock: pinnedClock).test(.router) { client async throws in
                try await client.post(
                    Self.path,
                    Self.body(
                        tenant,
                        #""external_user_ids":["fan-1","fan-1"],"user_aliases":[{"alias_name":"anon-b","alias_label":"install"}],"relevance_score":50"#
                    ),
                    key: tenant.secret)
            }
            #expect(response.status == .created, "\(response.text)")
            #expect(response.errors == [])
            let dispatchID = try #require(response.dispatchID)
            let targets = try await database.pool.query(
                "SELECT push_token FROM dispatch_targets WHERE dispatch_id = $1 ORDER BY push_token", [dispatchID])
            #expect(try targets.map { try $0.require("push_token", as: String.self) } == ["a1a1", "a2a2", "b1b1"])
            #expect(try await database.count("SELECT count(*) FROM dispatches WHERE event = 'start' AND activity_id = 'adventure-9'") == 1)
            try expectJSON(
                try await database.payload(ofDispatch: dispatchID),
                equals: """
                    {"aps": {"timestamp": 1685952000, "event": "start", "relevance-score": 50,
                     "content-state": {"currentHealthLevel": 1.0, "eventDescription": "Ready!"},
                     "alert": {"title": "Power Panda sets out!", "body": "Follow the adventure live."},
                     "attributes-type": "AdventureAttributes",
                     "attributes": {"currentAdventure": "Dragon Cave", "brazeActivityId": "adventure-9"},
                     "input-push-token": 1}}
                    """)
        }
    }

    @Test func missingUsersAndUsersWithoutATokenAreNonFatal() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await database.registerPushToStart(
                tenant, type: "AdventureAttributes", device: "iphone", token: "a1a1", externalID: "fan-1")
            // fan-2 exists, but only with a token for another type.
            try await database.registerPushToStart(tenant, type: "MatchAttributes", device: "iphone2", token: "b1b1", externalID: "fan-2")
            let response = try await TestGateway.app(database).test(.router) { client async throws in
                try await client.post(
                    Self.path,
                    Self.body(
                        tenant, #""external_user_ids":["fan-1","fan-2","ghost"],"user_aliases":[{"alias_name":"n","alias_label":"l"}]"#),
                    key: tenant.secret)
            }
            #expect(response.status == .created)
            #expect(
                response.errors == [
                    "external_id 'ghost' was not found",
                    "user alias 'n' (label 'l') was not found",
                    "external_id 'fan-2' has no push-to-start token for AdventureAttributes",
                ])
            #expect(try await database.count("SELECT count(*) FROM dispatch_targets") == 1)
        }
    }

    @Test func aSingleExternalIDIsShorthandForOneUser() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await database.registerPushToStart(
                tenant, type: "AdventureAttributes", device: "iphone", token: "a1a1", externalID: "fan-1")
            let response = try await TestGateway.app(database).test(.router) { client async throws in
                try await client.post(Self.path, Self.body(tenant, #""external_id":"fan-1""#), key: tenant.secret)
            }
            #expect(response.status == .created)
            #expect(try await database.count("SELECT count(*) FROM dispatch_targets") == 1)
        }
    }

    static let invalidBodies: [(fields: String, error: String)] = [
        (#""segment_id":"s-1""#, "segment_id must be a segment's id (a UUID), got 's-1'"),
        (#""custom_audience":{"AND":[]}"#, "custom_audience.AND must be a non-empty array of filters or AND/OR objects, got array"),
        (
            #""x":1"#,
            "name who to start the activity for: external_user_ids, user_aliases or external_id, or an audience with custom_audience or segment_id"
        ),
        (#""external_user_ids":[\#((0...50).map { "\"u\($0)\"" }.joined(separator: ","))]"#, "at most 50 users per start, got 51"),
        (#""external_user_ids":"fan-1""#, "external_user_ids must be an array of strings, got string"),
        (#""external_user_ids":["fan-1",""]"#, "external_user_ids[1] must be a non-empty string of at most 512 characters"),
        (#""user_aliases":[{"alias_name":"n"}]"#, "user_aliases[0].alias_label is required"),
        (#""user_aliases":["n"]"#, "user_aliases[0] must be an object with alias_name and alias_label"),
        (#""external_id":"f","activity_attributes_type":null"#, "activity_attributes_type is required"),
        (#""external_id":"f","activity_attributes":[]"#, "activity_attributes must be an object, got array"),
        (
            #""external_id":"f","notification":{"alert":{"body":"only a body"}}"#,
            "notification.alert.title is required to start an activity"
        ),
        (
            #""external_id":"f","notification":{"alert":{"title":"only a title"}}"#,
            "notification.alert.body is required to start an activity"
        ),
        (#""external_id":"f","notification":null"#, "notification is required"),
    ]

    @Test(arguments: invalidBodies)
    func eachInvalidFieldIs400AndCommitsNothing(fields: String, error: String) async throws {
        try await expectRefused(Self.path, { Self.body($0, fields) }, error: error)
    }

    @Test func aUserNamedTwiceAndFiftyDistinctUsersAreAccepted() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            let fifty = (1...50).map { "\"u\($0)\"" }.joined(separator: ",")
            let response = try await TestGateway.app(database).test(.router) { client async throws in
                try await client.post(
                    Self.path, Self.body(tenant, #""external_user_ids":[\#(fifty),"u1"],"external_id":"u2""#), key: tenant.secret)
            }
            #expect(response.status == .created)
            #expect(response.errors.count == 50)
        }
    }

    @Test func needsTheStartPermission() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant(permissions: [.liveActivityUpdate])
            try await TestGateway.app(database).test(.router) { client async throws in
                let response = try await client.post(Self.path, Self.body(tenant, #""external_id":"f""#), key: tenant.secret)
                #expect(response.status == .forbidden)
                #expect(response.errors == ["this API key does not have the messages.live_activity.start permission"])
            }
        }
    }
}
