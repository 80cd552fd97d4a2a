import APNsCore
import APNsSimulator
import Foundation
import HTTPTypes
import HummingbirdTesting
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import PostgresClient
import TestSupport
import Testing

/// Every comparison Braze allows, for each type, evaluated by PostgreSQL as a start to a
/// `custom_audience` is delivered: each start reaches exactly the users that match.
@Suite("custom_audience: every comparison, against real PostgreSQL", .requiresPostgres)
struct AudienceComparisonTests {
    static let users = ["lion-fan", "bear-fan", "newcomer", "odd-types"]

    static func filter(_ name: String, _ comparison: String, _ value: String? = nil) -> String {
        let given = value.map { #","value":\#($0)"# } ?? ""
        return #"{"custom_attribute":{"custom_attribute_name":"\#(name)","comparison":"\#(comparison)"\#(given)}}"#
    }

    /// Four users: two fans with every type set, one with none, one with `team` and `tickets` of
    /// other types than the fans'. Each has one push-to-start token.
    static func seed(_ harness: DeliveryHarness) async throws -> [String: String] {
        let now = Date()
        let day = 86_400.0
        try await harness.track(
            #"""
            {"external_id":"lion-fan","team":"lions","tickets":5,"vip":true,"joined":"\#(iso8601(now - 2 * day))",
             "renewal":"\#(iso8601(now + 3 * day))","teams":["lions","bears"]},
            {"external_id":"bear-fan","team":"bears","tickets":1,"vip":false,"joined":"\#(iso8601(now - 40 * day))",
             "renewal":"\#(iso8601(now + 60 * day))","teams":["bears"]},
            {"external_id":"odd-types","team":7,"tickets":"5"}
            """#)
        var tokens: [String: String] = [:]
        for (index, user) in users.enumerated() {
            let device = token(0x40 + index)
            try await harness.database.registerPushToStart(
                harness.tenant, type: "MatchAttributes", device: "phone-\(index)", token: device, externalID: user)
            tokens[device] = user
        }
        return tokens
    }

    static func cases(now: Date) -> [(audience: String, expected: Set<String>)] {
        let day = 86_400.0
        return [
            // Strings.
            (filter("team", "equals", #""lions""#), ["lion-fan"]),
            (filter("team", "not_equal", #""lions""#), ["bear-fan", "newcomer", "odd-types"]),
            (filter("team", "matches_regex", #""^li""#), ["lion-fan"]),
            (filter("team", "matches_regex", #""^LI|^B""#), ["lion-fan", "bear-fan"]),
            (filter("team", "does_not_equal", #""lions""#), ["bear-fan", "newcomer", "odd-types"]),
            (filter("team", "does_not_match_regex", #""^li""#), ["bear-fan", "newcomer", "odd-types"]),
            (filter("team", "exists"), ["lion-fan", "bear-fan", "odd-types"]),
            (filter("team", "does_not_exist"), ["newcomer"]),
            // Numbers: "5" as a string is not the number 5.
            (filter("tickets", "equals", "5"), ["lion-fan"]),
            (filter("tickets", "not_equal", "5"), ["bear-fan", "newcomer", "odd-types"]),
            (filter("tickets", "greater_than", "1"), ["lion-fan"]),
            (filter("tickets", "greater_than_or_equal_to", "1"), ["lion-fan", "bear-fan"]),
            (filter("tickets", "less_than", "5"), ["bear-fan"]),
            (filter("tickets", "less_than_or_equal_to", "5.0"), ["lion-fan", "bear-fan"]),
            (filter("tickets", "exists"), ["lion-fan", "bear-fan", "odd-types"]),
            (filter("tickets", "does_not_exist"), ["newcomer"]),
            // Booleans.
            (filter("vip", "equals", "true"), ["lion-fan"]),
            (filter("vip", "not_equal", "true"), ["bear-fan", "newcomer", "odd-types"]),
            (filter("vip", "exists"), ["lion-fan", "bear-fan"]),
            (filter("vip", "does_not_exist"), ["newcomer", "odd-types"]),
            // Times.
            (filter("joined", "less_than_x_days_ago", "7"), ["lion-fan"]),
            (filter("joined", "greater_than_x_days_ago", "7"), ["bear-fan"]),
            (filter("renewal", "less_than_x_days_in_the_future", "7"), ["lion-fan"]),
            (filter("renewal", "greater_than_x_days_in_the_future", "7"), ["bear-fan"]),
            (filter("joined", "after", #""\#(iso8601(now - 10 * day))""#), ["lion-fan"]),
            (filter("joined", "before", #""\#(iso8601(now - 10 * day))""#), ["bear-fan"]),
            // Arrays.
            (filter("teams", "includes_value", #""bears""#), ["lion-fan", "bear-fan"]),
            (filter("teams", "does_not_include_value", #""lions""#), ["bear-fan", "newcomer", "odd-types"]),
            (filter("teams", "exists"), ["lion-fan", "bear-fan"]),
            (filter("teams", "does_not_exist"), ["newcomer", "odd-types"]),
            // Nested AND/OR.
            (
                #"{"OR":[{"AND":[\#(filter("team", "equals", #""lions""#)),\#(filter("vip", "equals", "true"))]},\#(filter("tickets", "equals", "1"))]}"#,
                ["lion-fan", "bear-fan"]
            ),
            (
                #"{"AND":[{"OR":[\#(filter("team", "equals", #""lions""#)),\#(filter("team", "equals", #""bears""#))]},\#(filter("tickets", "greater_than", "2"))]}"#,
                ["lion-fan"]
            ),
            (
                #"{"AND":[\#(filter("team", "exists")),{"OR":[\#(filter("vip", "equals", "false")),\#(filter("vip", "does_not_exist"))]}]}"#,
                ["bear-fan", "odd-types"]
            ),
        ]
    }

    @Test func eachStartReachesExactlyTheUsersItsAudienceMatches() async throws {
        try await DeliveryHarness.with { harness in
            let tokens = try await Self.seed(harness)
            for (index, testCase) in Self.cases(now: Date()).enumerated() {
                let id = try await harness.startToAudience(#""custom_audience":\#(testCase.audience)"#, activityID: "match-\(index)")
                try await harness.engine.deliverDue()
                #expect(harness.usersReached(tokens) == testCase.expected, "\(testCase.audience)")
                let row = try await harness.dispatch(id)
                #expect(try row.require("status", as: String.self) == "done")
                #expect(try row.require("sent_count", as: Int.self) == testCase.expected.count, "\(testCase.audience)")
            }
        }
    }

    /// The devices reached become the start's targets, so its resource shows the audience and its
    /// confirmation figures as for a start to named users.
    @Test func theDispatchResourceShowsTheAudienceAndItsDevices() async throws {
        try await DeliveryHarness.with { harness in
            let tokens = try await Self.seed(harness)
            let audience = Self.filter("teams", "includes_value", #""bears""#)
            let id = try await harness.startToAudience(#""custom_audience":\#(audience)"#, activityID: "match-final")
            try await harness.engine.deliverDue()
            #expect(harness.usersReached(tokens) == ["lion-fan", "bear-fan"])
            // One of the two shows the started activity: its update token arrives under the activity's id.
            try await harness.register(token(0x60), device: "phone-0", tag: "match-final", externalID: "lion-fan")
            try await harness.api { client in
                let response = try await client.execute(
                    uri: "/messages/live_activity/dispatches/\(id)", method: .get, headers: .bearer(harness.tenant.secret), body: nil)
                #expect(response.status == .ok, "\(response.text)")
                let json = try response.json
                #expect(json["status"]?.stringValue == "done")
                #expect(json["audience"]?["activity_attributes_type"]?.stringValue == "MatchAttributes")
                #expect(json["audience"]?["custom_audience"] == (try JSONValue.parse(audience)))
                #expect(json["audience"]?["segment_id"] == .null)
                #expect(json["devices"]?["sent"] == .number("2"))
                #expect(json["confirmation"]?["sent"] == .number("2"))
                #expect(json["confirmation"]?["confirmed"] == .number("1"))
                #expect(json["confirmation"]?["unconfirmed"] == .number("1"))
            }
        }
    }
}
