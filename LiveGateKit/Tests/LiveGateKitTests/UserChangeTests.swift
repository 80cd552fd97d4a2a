import Foundation
import LiveGateKit
import Testing

/// Who the device's reports belong to: `changeUser(userId:)` takes effect at once, without `await`, and
/// `logout()` gives the device's tokens back to no user.
@Suite("LiveGateKit's user")
struct UserChangeTests {
    private func tokenReports(_ transport: RecordingTransport, tag: String) -> [RecordingTransport.Taken] {
        transport.reports.filter { $0.fields["tag"] == tag }
    }

    @Test func changeUserNeedsNoAwaitAndTheNextReportNamesTheUser() async throws {
        let transport = RecordingTransport()
        let liveGate = try SDKFixture.liveGate(transport)
        liveGate.changeUser(userId: "user-1")
        await liveGate.liveActivities.reportUpdateToken(SDKFixture.token(0x11), tag: "order-11")
        #expect(await liveGate.flush())
        #expect(tokenReports(transport, tag: "order-11").map { $0.fields["external_id"] } == ["user-1"])
        await liveGate.shutdown()
    }

    @Test func registrationsMoveToTheNewUserAndLogoutLeavesThemWithNoUser() async throws {
        let transport = RecordingTransport()
        let liveGate = try SDKFixture.liveGate(transport)
        await liveGate.changeUser(externalID: "user-1")
        await liveGate.liveActivities.reportUpdateToken(SDKFixture.token(0x12), tag: "order-12")
        await liveGate.liveActivities.reportPushToStartToken(SDKFixture.token(0x13), type: "OrderAttributes")
        #expect(await liveGate.flush())

        liveGate.changeUser(userId: "user-2")
        try await transport.waitUntil { reports in reports.filter { $0.fields["external_id"] == "user-2" }.count == 2 }

        await liveGate.logout()
        #expect(await liveGate.flush())
        let afterLogout = Array(transport.reports.suffix(2))
        #expect(
            Set(afterLogout.compactMap { $0.fields["tag"] ?? $0.fields["activity_attributes_type"] }) == ["order-12", "OrderAttributes"])
        for report in afterLogout {
            #expect(report.nulls == ["external_id"], "each registration again, belonging to no user: \(report)")
            #expect(report.fields["external_id"] == nil)
        }
        // A token reported with nobody signed in says so too.
        await liveGate.liveActivities.reportUpdateToken(SDKFixture.token(0x14), tag: "order-14")
        #expect(await liveGate.flush())
        #expect(tokenReports(transport, tag: "order-14").map(\.nulls) == [["external_id"]])
        await liveGate.shutdown()
    }

    @Test func theUserIsKeptAcrossALaunch() async throws {
        let folder = SDKFixture.newFolder()
        let first = try SDKFixture.liveGate(RecordingTransport(), folder: folder)
        await first.changeUser(externalID: "user-3")
        await first.shutdown()

        let transport = RecordingTransport()
        let second = try SDKFixture.liveGate(transport, folder: folder)
        await second.liveActivities.reportUpdateToken(SDKFixture.token(0x15), tag: "order-15")
        #expect(await second.flush())
        #expect(tokenReports(transport, tag: "order-15").map { $0.fields["external_id"] } == ["user-3"])
        await second.shutdown()
    }
}
