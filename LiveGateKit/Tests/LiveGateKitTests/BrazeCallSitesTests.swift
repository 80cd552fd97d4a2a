#if canImport(ActivityKit)
    import ActivityKit
    import Foundation
    import LiveGateKit
    import Testing

    /// Braze's call sites (BrazeCallSites.swift, with only the receiver renamed) do what Braze's do, against
    /// the stand-in and a recording transport.
    @Suite("Braze's call sites, with only the receiver renamed", .serialized)
    struct BrazeCallSitesTests {
        @Test func theyRegisterTheUserTheTypeAndTheActivity() async throws {
            Activity<SportsActivityAttributes>.standInReset()
            let transport = RecordingTransport()
            let liveGate = try SDKFixture.liveGate(transport)
            AppDelegate.liveGate = liveGate
            LiveActivityManager.liveGate = liveGate
            defer {
                AppDelegate.liveGate = nil
                LiveActivityManager.liveGate = nil
            }

            #expect(AppDelegate().application())
            let manager = LiveActivityManager()
            manager.registerActivityType()
            Activity<SportsActivityAttributes>.standInSetPushToStartToken(SDKFixture.token(0x21))
            manager.createActivity()
            let activity = try #require(Activity<SportsActivityAttributes>.activities.first)
            activity.standInSetPushToken(SDKFixture.token(0x22))

            try await transport.waitUntil { reports in
                reports.contains { $0.fields["push_to_start_token"] == SDKFixture.hex(0x21) }
                    && reports.contains { $0.fields["push_token"] == SDKFixture.hex(0x22) }
            }
            let startToken = try #require(transport.reports.first { $0.fields["push_to_start_token"] != nil })
            #expect(startToken.fields["activity_attributes_type"] == "SportsActivityAttributes")
            #expect(startToken.fields["external_id"] == "user-42")
            let updateToken = try #require(transport.reports.first { $0.fields["push_token"] != nil })
            #expect(updateToken.fields["tag"] == "sports-game-2024-03-15")
            #expect(updateToken.fields["activity_attributes_type"] == "SportsActivityAttributes")

            // unregisterPushToStart(): the type's token is removed, and a rotated one is no longer reported.
            manager.unregister()
            try await transport.waitUntil { reports in
                reports.contains {
                    $0.fields["activity_attributes_type"] == "SportsActivityAttributes" && $0.nulls.contains("push_to_start_token")
                }
            }
            Activity<SportsActivityAttributes>.standInSetPushToStartToken(SDKFixture.token(0x23))
            try await Task.sleep(for: .milliseconds(300))
            #expect(await liveGate.flush())
            #expect(!transport.reports.contains { $0.fields["push_to_start_token"] == SDKFixture.hex(0x23) })
            activity.standInSetState(.ended)
            await liveGate.shutdown()
        }
    }
#endif
