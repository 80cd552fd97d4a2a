#if canImport(ActivityKit)
    import ActivityKit
    import Foundation
    import LiveGateKit
    import Testing

    /// A news activity, only these tests use (the stand-in's device is global per attributes type).
    struct BulletinAttributes: ActivityAttributes, LiveGateActivityAttributes {
        struct ContentState: Codable, Hashable {
            var headline: String
        }

        var desk: String
        var brazeActivityId: String?
    }

    /// The person's "More Frequent Updates" setting reaches the gateway with the activity's state, and
    /// again for each activity when it changes, so the gateway knows which budget the device has.
    @Suite("LiveGateKit reports whether frequent updates are allowed", .serialized)
    struct FrequentPushesTests {
        private func states(_ transport: RecordingTransport, tag: String) -> [RecordingTransport.Taken] {
            transport.reports.filter { $0.route == "/live_activity/device_state" && $0.fields["activity_id"] == tag }
        }

        @Test func theSettingGoesWithTheStateAndItsChangeIsReportedForEachActivityNotOver() async throws {
            Activity<BulletinAttributes>.standInReset()
            ActivityAuthorizationInfo.standInSetFrequentPushesEnabled(false)
            let transport = RecordingTransport()
            let liveGate = try SDKFixture.liveGate(transport, firstTokenWait: .milliseconds(50))
            let content = ActivityContent(state: BulletinAttributes.ContentState(headline: "Storm"), staleDate: nil)
            let first = try Activity.request(attributes: BulletinAttributes(desk: "local"), content: content, pushType: .token)
            let second = try Activity.request(attributes: BulletinAttributes(desk: "sport"), content: content, pushType: .token)
            liveGate.liveActivities.launchActivity(pushTokenTag: "bulletin-1", activity: first)
            liveGate.liveActivities.launchActivity(pushTokenTag: "bulletin-2", activity: second)
            try await transport.waitUntil { _ in
                self.states(transport, tag: "bulletin-1").count == 1 && self.states(transport, tag: "bulletin-2").count == 1
            }
            #expect(states(transport, tag: "bulletin-1").first?.flags["frequent_pushes_enabled"] == false)

            // The second activity ends; then the person allows frequent updates.
            second.standInSetState(.ended)
            try await transport.waitUntil { _ in self.states(transport, tag: "bulletin-2").count == 2 }
            ActivityAuthorizationInfo.standInSetFrequentPushesEnabled(true)
            try await transport.waitUntil { _ in self.states(transport, tag: "bulletin-1").count == 2 }
            let again = try #require(states(transport, tag: "bulletin-1").last)
            #expect(again.fields["state"] == "active")
            #expect(again.flags["frequent_pushes_enabled"] == true)
            #expect(await liveGate.flush())
            #expect(states(transport, tag: "bulletin-2").count == 2, "an activity over reports nothing more")

            // Later states carry the new value.
            first.standInSetState(.ended)
            try await transport.waitUntil { _ in self.states(transport, tag: "bulletin-1").count == 3 }
            #expect(states(transport, tag: "bulletin-1").last?.flags["frequent_pushes_enabled"] == true)
            ActivityAuthorizationInfo.standInSetFrequentPushesEnabled(false)
            await liveGate.shutdown()
        }

        @Test func anAppThatFollowsActivityKitItselfReportsTheSettingThroughTheSDK() async throws {
            let transport = RecordingTransport()
            let liveGate = try SDKFixture.liveGate(transport)
            await liveGate.liveActivities.reportState(.active, tag: "order-20")
            #expect(await liveGate.flush())
            // The first value known is news for the activity reported without it; the same value again is not.
            // (A state waiting in the outbox is replaced by a newer one of its activity: flushed after each.)
            for enabled in [true, true, false] {
                await liveGate.liveActivities.reportFrequentPushesEnabled(enabled)
                #expect(await liveGate.flush())
            }
            #expect(states(transport, tag: "order-20").map { $0.flags["frequent_pushes_enabled"] } == [nil, true, false])
            await liveGate.shutdown()
        }
    }
#endif
