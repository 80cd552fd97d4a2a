import ActivityKit
import Foundation
import Testing

@testable import LiveGateKit

/// A parcel's activity, only these tests use (the stand-in's device is global per attributes type).
struct ParcelAttributes: ActivityAttributes, LiveGateActivityAttributes {
    struct ContentState: Codable, Hashable {
        var step: String
    }

    var parcelNumber: String
    var brazeActivityId: String?
}

/// Each update token goes to `/push_token_tag` with its activity's ActivityAttributes type, so the gateway
/// knows which registered schema the activity's updates must match.
@Suite("LiveGateKit reports each update token with its activity's attributes type", .serialized)
struct ReportAttributesTypeTests {
    static let token = String(repeating: "ab", count: 32)

    private func fields(_ report: Report) throws -> [String: Any] {
        let body = try report.body(appID: "app-1", deviceID: "device-1")
        return try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
    }

    @Test func aTypesNameIsItsOwnNameWithoutModuleOrEnclosingType() {
        #expect(LiveActivities.attributesTypeName(of: ParcelAttributes.self) == "ParcelAttributes")
        #expect(LiveActivities.attributesTypeName(of: ParcelAttributes.ContentState.self) == "ContentState")
    }

    @Test func anUpdateTokensBodyNamesTheTypeBesideTagAndToken() throws {
        let report = Report(
            id: UUID(), kind: .updateToken, subject: "parcel-1", token: Self.token, externalID: "fan-1", attributesType: "ParcelAttributes")
        let body = String(decoding: try report.body(appID: "app-1", deviceID: "device-1"), as: UTF8.self)
        #expect(
            body
                == #"{"activity_attributes_type":"ParcelAttributes","app_id":"app-1","device_id":"device-1","external_id":"fan-1","push_token":""#
                + Self.token + #"","tag":"parcel-1"}"#)

        // A removal names the type too; a report without a type sends none.
        let removal = try fields(
            Report(id: UUID(), kind: .updateToken, subject: "parcel-1", token: nil, attributesType: "ParcelAttributes"))
        #expect(removal["activity_attributes_type"] as? String == "ParcelAttributes")
        #expect(removal["push_token"] is NSNull)
        #expect(
            try fields(Report(id: UUID(), kind: .updateToken, subject: "parcel-1", token: Self.token))["activity_attributes_type"] == nil)
    }

    @Test func anOutboxWrittenBeforeTheTypeWasKeptStillReads() throws {
        let written = """
            {"pending":[{"id":"6F1C2B57-5A44-4E0B-9E35-0B7C6A1D2E3F","kind":"updateToken","subject":"parcel-1","token":"abab",
                         "externalID":"fan-1"}],
             "registrations":[{"id":"0D6E0E7B-6A31-4C1B-8F6D-6E2B7F0C9A11","kind":"pushToStartToken","subject":"ParcelAttributes",
                               "token":"cdcd"}],
             "activityTags":{"A1":"parcel-1"},"externalID":"fan-1"}
            """
        let state = try JSONDecoder().decode(OutboxState.self, from: Data(written.utf8))
        let pending = try #require(state.pending.first)
        #expect(pending.attributesType == nil)
        #expect(pending.subject == "parcel-1" && pending.token == "abab" && pending.externalID == "fan-1")
        let fields = try fields(pending)
        #expect(fields["tag"] as? String == "parcel-1")
        #expect(fields["activity_attributes_type"] == nil)

        // Kept from now on: what is written with the type reads back with it.
        var typed = state
        typed.pending[0].attributesType = "ParcelAttributes"
        #expect(try JSONDecoder().decode(OutboxState.self, from: JSONEncoder().encode(typed)) == typed)
    }

    private func sdk(_ transport: RecordingTransport) throws -> LiveGate {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livegatekit-type-\(UUID().uuidString)")
        return try LiveGate(
            configuration: .init(
                gatewayURL: URL(string: "http://127.0.0.1:9")!, appID: "app-1", deviceID: "device-1", storageFolder: folder,
                transport: transport))
    }

    @Test func aLaunchedActivitysTokenCarriesItsTypesName() async throws {
        Activity<ParcelAttributes>.standInReset()
        let transport = RecordingTransport()
        let liveGate = try sdk(transport)
        let activity = try Activity.request(
            attributes: ParcelAttributes(parcelNumber: "P-1"), content: ActivityContent(state: .init(step: "packed"), staleDate: nil),
            pushType: .token)
        liveGate.liveActivities.launchActivity(pushTokenTag: "parcel-1", activity: activity)
        activity.standInSetPushToken(Data([0x7b, 0x7b]))
        try await transport.waitUntil { $0.contains { $0.fields["push_token"] == "7b7b" } }
        let token = try #require(transport.reports.first { $0.fields["push_token"] == "7b7b" })
        #expect(token.fields["tag"] == "parcel-1")
        #expect(token.fields["activity_attributes_type"] == "ParcelAttributes")
        await liveGate.shutdown()
    }

    @Test func anActivityStartedByPushToStartCarriesTheNameItWasRegisteredUnder() async throws {
        Activity<ParcelAttributes>.standInReset()
        let transport = RecordingTransport()
        let liveGate = try sdk(transport)
        liveGate.liveActivities.registerPushToStart(forType: ParcelAttributes.self, name: "Parcel")
        Activity<ParcelAttributes>.standInSetPushToStartToken(Data([0x7a]))
        try await transport.waitUntil { $0.contains { $0.fields["push_to_start_token"] == "7a" } }
        #expect(transport.reports.first?.fields["activity_attributes_type"] == "Parcel")

        let activity = Activity<ParcelAttributes>.standInSystemStart(
            attributes: ParcelAttributes(parcelNumber: "P-2", brazeActivityId: "parcel-2"),
            content: ActivityContent(state: .init(step: "packed"), staleDate: nil))
        activity.standInSetPushToken(Data([0x7c]))
        try await transport.waitUntil { $0.contains { $0.fields["push_token"] == "7c" } }
        let token = try #require(transport.reports.first { $0.fields["push_token"] == "7c" })
        #expect(token.fields["tag"] == "parcel-2")
        #expect(token.fields["activity_attributes_type"] == "Parcel")
        await liveGate.shutdown()
    }
}
