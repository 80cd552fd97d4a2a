import APNsCore
import Foundation
import HummingbirdTesting
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import TestSupport
import Testing

/// An audience that cannot be evaluated is a 400 naming the path of the part at fault, and nothing is
/// committed.
@Suite("custom_audience: invalid filters named in the 400", .requiresPostgres)
struct AudienceValidationTests {
    static func body(_ tenant: Tenant, _ fields: String) -> String {
        #"{"app_id":"\#(tenant.app.identifier)","activity_id":"match-1","activity_attributes_type":"MatchAttributes","activity_attributes":{},"content_state":{},"notification":{"alert":{"title":"Kick-off","body":"A v B"}},\#(fields)}"#
    }

    static func filter(_ comparison: String, _ value: String) -> String {
        #"{"custom_attribute":{"custom_attribute_name":"team","comparison":"\#(comparison)","value":\#(value)}}"#
    }

    static func nested(_ depth: Int) -> String {
        (0..<depth).reduce(filter("equals", #""lions""#)) { inner, _ in #"{"AND":[\#(inner)]}"# }
    }

    static let invalidAudiences: [(fields: String, error: String)] = [
        (
            #""custom_audience":{"AND":[\#(filter("equals", #""a""#)),{"OR":[\#(filter("sounds_like", #""a""#))]}]}"#,
            "custom_audience.AND[1].OR[0].custom_attribute.comparison 'sounds_like' is not a comparison: use one of "
                + "equals, not_equal, does_not_equal, matches_regex, does_not_match_regex, greater_than, greater_than_or_equal_to, less_than, "
                + "less_than_or_equal_to, less_than_x_days_ago, greater_than_x_days_ago, less_than_x_days_in_the_future, "
                + "greater_than_x_days_in_the_future, after, before, includes_value, does_not_include_value, exists, does_not_exist"
        ),
        (
            #""custom_audience":{"OR":[\#(filter("greater_than", #""ten""#))]}"#,
            "custom_audience.OR[0].custom_attribute.value must be a number at most 1e300 either side of zero, got 'ten'"
        ),
        (
            #""custom_audience":\#(filter("after", #""yesterday""#))"#,
            "custom_audience.custom_attribute.value must be an ISO 8601 date-time with a time zone, got 'yesterday'"
        ),
        (
            #""custom_audience":\#(filter("less_than_x_days_ago", "-1"))"#,
            "custom_audience.custom_attribute.value must be a number of days from 0 to 36500, got number"
        ),
        (
            #""custom_audience":\#(filter("includes_value", "[1]"))"#,
            "custom_audience.custom_attribute.value must be a string of 1 to 255 characters, got array"
        ),
        (
            #""custom_audience":\#(filter("equals", "{}"))"#,
            "custom_audience.custom_attribute.value must be a string, a number or a boolean, got object"
        ),
        (#""custom_audience":\#(nested(6))"#, "custom_audience.AND[0].AND[0].AND[0].AND[0].AND[0].AND nests AND/OR deeper than 5 levels"),
        (
            #""custom_audience":{"AND":[{"push_subscription_status":{"comparison":"is","value":"opted_in"}}]}"#,
            "custom_audience.AND[0].push_subscription_status filters are not supported: LiveGate keeps no subscription states or app sessions; filter on custom_attribute (set by POST /users/track)"
        ),
        (
            #""custom_audience":{"last_used_app":{"comparison":"after","value":"2024-01-01T00:00:00Z"}}"#,
            "custom_audience.last_used_app filters are not supported: LiveGate keeps no subscription states or app sessions; filter on custom_attribute (set by POST /users/track)"
        ),
        (
            #""custom_audience":{"AND":[],"OR":[]}"#,
            "custom_audience must be an object with exactly one of AND, OR or custom_attribute, got object"
        ),
        (
            #""custom_audience":{"custom_attribute":{"comparison":"exists"}}"#,
            "custom_audience.custom_attribute.custom_attribute_name is required: a string of 1 to 255 characters"
        ),
        (
            #""custom_audience":{"custom_attribute":{"custom_attribute_name":"team","comparison":"exists","extra":1}}"#,
            "custom_audience.custom_attribute.extra is not a field of a custom_attribute filter"
        ),
        (
            #""custom_audience":\#(filter("exists", "1")),"external_user_ids":["fan-1"]"#,
            "a start goes to named users (external_user_ids, user_aliases, external_id) or to an audience (custom_audience, segment_id), not both"
        ),
        (
            #""audience":\#(filter("exists", "1"))"#,
            "audience is not a field of a start: Braze's start takes its connected audience object as custom_audience"
        ),
    ]

    @Test(arguments: invalidAudiences)
    func eachInvalidAudienceIs400NamingItsPath(fields: String, error: String) async throws {
        try await expectRefused("/messages/live_activity/start", { Self.body($0, fields) }, error: error)
    }

    @Test func tooManyFiltersAre400() async throws {
        let filters = Array(repeating: Self.filter("equals", #""a""#), count: 101).joined(separator: ",")
        try await expectRefused(
            "/messages/live_activity/start", { Self.body($0, #""custom_audience":{"OR":[\#(filters)]}"#) },
            error: "custom_audience has 101 filters; an audience takes at most 100")
    }

    /// The regular expression is compiled by PostgreSQL, which evaluates it at delivery.
    @Test func aRegularExpressionPostgreSQLCannotCompileIs400() async throws {
        try await expectRefused(
            "/messages/live_activity/start", { Self.body($0, #""custom_audience":\#(Self.filter("matches_regex", #""(lions""#))"#) },
            error: "custom_audience has an invalid regular expression '(lions' (PostgreSQL's syntax)")
    }

    @Test func anUnknownSegmentIs400() async throws {
        try await expectRefused(
            "/messages/live_activity/start", { Self.body($0, #""segment_id":"7d1b3c56-2a4b-4c1e-9a57-0d5e6f7a8b9c""#) },
            error: "segment_id '7d1b3c56-2a4b-4c1e-9a57-0d5e6f7a8b9c' is not a segment of this API key's workspace")
    }
}
