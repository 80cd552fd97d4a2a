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
import NIOConcurrencyHelpers
import PostgresClient
import TestSupport
import Testing

/// `/segments`: named audiences in Braze's shapes, and starts to them evaluated when delivered.
@Suite("Segments", .requiresPostgres)
struct SegmentTests {
    static let lions = #"{"custom_attribute":{"custom_attribute_name":"team","comparison":"equals","value":"lions"}}"#

    static func createSegment(_ harness: DeliveryHarness, name: String, audience: String) async throws -> String {
        let id = NIOLockedValueBox<String?>(nil)
        try await harness.api { client in
            let response = try await client.post(
                "/segments", #"{"name":"\#(name)","audience":\#(audience)}"#, key: harness.tenant.secret)
            #expect(response.status == .created, "\(response.text)")
            #expect(try response.json["message"]?.stringValue == "success")
            id.withLockedValue { $0 = try? response.json["segment_id"]?.stringValue }
        }
        return try #require(id.withLockedValue { $0 })
    }

    static func get(_ harness: DeliveryHarness, _ uri: String) async throws -> (HTTPResponse.Status, JSONValue) {
        let result = NIOLockedValueBox<(HTTPResponse.Status, JSONValue)?>(nil)
        try await harness.api { client in
            let response = try await client.execute(uri: uri, method: .get, headers: .bearer(harness.tenant.secret), body: nil)
            result.withLockedValue { $0 = (response.status, (try? response.json) ?? .null) }
        }
        return try #require(result.withLockedValue { $0 })
    }

    static func seedFans(_ harness: DeliveryHarness) async throws -> [String: String] {
        try await harness.track(
            #"{"external_id":"lion-fan","team":"lions","tickets":3},{"external_id":"bear-fan","team":"bears","tickets":1}"#)
        var tokens: [String: String] = [:]
        for (index, user) in ["lion-fan", "bear-fan"].enumerated() {
            try await harness.database.registerPushToStart(
                harness.tenant, type: "MatchAttributes", device: "phone-\(index)", token: token(0x50 + index), externalID: user)
            tokens[token(0x50 + index)] = user
        }
        return tokens
    }

    @Test func aSegmentIsListedDescribedAndUsedByStartsAsItIsWhenDelivered() async throws {
        try await DeliveryHarness.with { harness in
            let tokens = try await Self.seedFans(harness)
            let id = try await Self.createSegment(harness, name: "Lions fans", audience: Self.lions)

            let (listStatus, list) = try await Self.get(harness, "/segments/list")
            #expect(listStatus == .ok)
            #expect(
                list
                    == (try JSONValue.parse(
                        #"{"segments":[{"id":"\#(id)","name":"Lions fans","analytics_tracking_enabled":false,"tags":[]}],"message":"success"}"#
                    )))
            let (detailsStatus, details) = try await Self.get(harness, "/segments/details?segment_id=\(id)")
            #expect(detailsStatus == .ok)
            #expect(details["name"]?.stringValue == "Lions fans")
            #expect(details["text_description"]?.stringValue == "team equals 'lions'")
            #expect(details["audience"] == (try JSONValue.parse(Self.lions)))
            #expect(details["message"]?.stringValue == "success")

            _ = try await harness.startToAudience(#""segment_id":"\#(id)""#, activityID: "match-1")
            try await harness.engine.deliverDue()
            #expect(harness.usersReached(tokens) == ["lion-fan"])

            // Evaluated when delivered: the bear fan changes team, and the next start reaches both.
            try await harness.track(#"{"external_id":"bear-fan","team":"lions"}"#)
            _ = try await harness.startToAudience(#""segment_id":"\#(id)""#, activityID: "match-2")
            try await harness.engine.deliverDue()
            #expect(harness.usersReached(tokens) == ["lion-fan", "bear-fan"])

            // A segment and a custom_audience together: users in both.
            let moreTickets = #"{"custom_attribute":{"custom_attribute_name":"tickets","comparison":"greater_than","value":2}}"#
            _ = try await harness.startToAudience(#""segment_id":"\#(id)","custom_audience":\#(moreTickets)"#, activityID: "match-3")
            try await harness.engine.deliverDue()
            #expect(harness.usersReached(tokens) == ["lion-fan"])
        }
    }

    @Test func aStartWhoseSegmentIsDeletedBeforeDeliveryFailsAndSaysWhy() async throws {
        try await DeliveryHarness.with { harness in
            _ = try await Self.seedFans(harness)
            let segment = try await Self.createSegment(harness, name: "Lions fans", audience: Self.lions)
            let dispatch = try await harness.startToAudience(#""segment_id":"\#(segment)""#, activityID: "match-1")
            try await harness.api { client in
                let response = try await client.execute(
                    uri: "/segments/\(segment)", method: .delete, headers: .bearer(harness.tenant.secret), body: nil)
                #expect(response.status == .ok, "\(response.text)")
                #expect(response.text == #"{"message":"success"}"#)
                let again = try await client.execute(
                    uri: "/segments/\(segment)", method: .delete, headers: .bearer(harness.tenant.secret), body: nil)
                #expect(again.status == .notFound)
            }
            try await harness.engine.deliverDue()
            #expect(harness.simulator.received.isEmpty)
            #expect(try await harness.dispatch(dispatch).require("status", as: String.self) == "failed")
            let messages = try await harness.log().map { try $0.require("message", as: String.self) }
            #expect(messages.contains { $0.contains("segment \(segment) was deleted") }, "\(messages)")
            let (status, _) = try await Self.get(harness, "/segments/details?segment_id=\(segment)")
            #expect(status == .notFound)
        }
    }

    @Test func anotherWorkspacesSegmentIsNotFoundAndTheRoutesNeedThePermission() async throws {
        try await DeliveryHarness.with { harness in
            let segment = try await Self.createSegment(harness, name: "Lions fans", audience: Self.lions)
            let other = try await harness.database.makeTenant()
            let readOnly = try await harness.database.makeTenant(permissions: [.liveActivityStart])
            try await harness.api { client in
                let details = try await client.execute(
                    uri: "/segments/details?segment_id=\(segment)", method: .get, headers: .bearer(other.secret), body: nil)
                #expect(details.status == .notFound)
                let delete = try await client.execute(
                    uri: "/segments/\(segment)", method: .delete, headers: .bearer(other.secret), body: nil)
                #expect(delete.status == .notFound)
                let list = try await client.execute(uri: "/segments/list", method: .get, headers: .bearer(other.secret), body: nil)
                #expect(list.text == #"{"segments":[],"message":"success"}"#)
                let badPage = try await client.execute(
                    uri: "/segments/list?page=100001&sort_direction=up", method: .get, headers: .bearer(other.secret), body: nil)
                #expect(badPage.status == .badRequest)
                #expect(badPage.errors == ["page must be a whole number from 0 to 100000", "sort_direction must be asc or desc"])
                let start = try await client.post(
                    "/messages/live_activity/start",
                    #"{"app_id":"\#(other.app.identifier)","activity_id":"m","activity_attributes_type":"MatchAttributes","activity_attributes":{},"segment_id":"\#(segment)","notification":{"alert":{"title":"t","body":"b"}}}"#,
                    key: other.secret)
                #expect(start.status == .badRequest, "\(start.text)")
                let refused = try await client.post(
                    "/segments", #"{"name":"x","audience":\#(Self.lions)}"#, key: readOnly.secret)
                #expect(refused.status == .forbidden)
            }
        }
    }

    @Test func anInvalidSegmentIs400NamingItsPath() async throws {
        try await DeliveryHarness.with { harness in
            try await harness.api { client in
                let response = try await client.post(
                    "/segments",
                    #"{"name":"x","audience":{"OR":[{"custom_attribute":{"custom_attribute_name":"team","comparison":"equals"}}]}}"#,
                    key: harness.tenant.secret)
                #expect(response.status == .badRequest)
                #expect(response.errors == ["audience.OR[0].custom_attribute.value must be a string, a number or a boolean, got nothing"])
                let unnamed = try await client.post("/segments", #"{"audience":\#(Self.lions)}"#, key: harness.tenant.secret)
                #expect(unnamed.errors == ["name is required"])
            }
            #expect(try await harness.database.count("SELECT count(*) FROM segments") == 0)
        }
    }
}
