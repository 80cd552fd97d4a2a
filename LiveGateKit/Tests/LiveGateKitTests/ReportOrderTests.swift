import Foundation
import LiveGateKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the SDK promises about the order of its reports (docs/sdk.md, "The order of reports"), against a
/// transport that records what it is sent.
@Suite("LiveGateKit sends an activity's token before the state that confirms it")
struct ReportOrderTests {
    private func sdk(_ transport: RecordingTransport, firstTokenWait: Duration = .seconds(3600)) throws -> LiveGate {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livegatekit-order-\(UUID().uuidString)")
        return try LiveGate(
            configuration: .init(
                gatewayURL: URL(string: "http://127.0.0.1:9")!, appID: "app-1", deviceID: "device-1", storageFolder: folder,
                firstTokenWait: firstTokenWait, transport: transport))
    }

    private func kinds(_ reports: [RecordingTransport.Taken]) -> [String] {
        reports.map {
            $0.route == "/live_activity/device_state" ? "state:\($0.fields["state"] ?? "")" : "token:\($0.fields["push_token"] ?? "")"
        }
    }

    @Test func aStartedActivitysStateWaitsForItsFirstToken() async throws {
        let transport = RecordingTransport()
        let liveGate = try sdk(transport)
        let (tokens, tokenSource) = AsyncStream.makeStream(of: Data.self)
        let (states, _) = AsyncStream.makeStream(of: LiveActivityState.self)
        liveGate.liveActivities.trackActivity(tag: "match-1", currentState: .active, pushTokens: tokens, states: states)
        try await Task.sleep(for: .milliseconds(200))
        await liveGate.flush()
        #expect(transport.reports.isEmpty, "\(transport.reports)")

        tokenSource.yield(Data(repeating: 0x7b, count: 2))
        try await transport.waitForReports(2)
        #expect(kinds(transport.reports) == ["token:7b7b", "state:active"])
        await liveGate.shutdown()
    }

    @Test func aNewerTokenTakesTheWaitingOnesPlaceSoTheStateStillFollowsIt() async throws {
        let transport = RecordingTransport(holdsEachRequest: true)
        let liveGate = try sdk(transport)
        await liveGate.liveActivities.reportUpdateToken(Data([0x01]), tag: "other")
        await liveGate.liveActivities.reportUpdateToken(Data([0x02]), tag: "match-2")
        await liveGate.liveActivities.reportState(.active, tag: "match-2")
        // Rotated while the first token waits: it replaces that one where it stands, ahead of the state.
        await liveGate.liveActivities.reportUpdateToken(Data([0x03]), tag: "match-2")
        for _ in 0..<3 { try await transport.releaseOne() }
        try await transport.waitForReports(3)
        #expect(kinds(transport.reports) == ["token:01", "token:03", "state:active"])
        await liveGate.shutdown()
    }

    @Test func anActivityOnAChannelReportsItsStateAtOnce() async throws {
        let transport = RecordingTransport()
        let liveGate = try sdk(transport)
        let (tokens, _) = AsyncStream.makeStream(of: Data.self)
        let (states, _) = AsyncStream.makeStream(of: LiveActivityState.self)
        liveGate.liveActivities.trackActivity(
            tag: "match-3", channelID: "Y2hhbm5lbA==", currentState: .active, pushTokens: tokens, states: states)
        try await transport.waitForReports(1)
        #expect(kinds(transport.reports) == ["state:active"])
        #expect(transport.reports.first?.fields["channel_id"] == "Y2hhbm5lbA==")
        await liveGate.shutdown()
    }

    @Test func anActivityThatGetsNoTokenReportsItsStateAfterTheWait() async throws {
        let transport = RecordingTransport()
        let liveGate = try sdk(transport, firstTokenWait: .milliseconds(300))
        let (tokens, _) = AsyncStream.makeStream(of: Data.self)
        let (states, _) = AsyncStream.makeStream(of: LiveActivityState.self)
        let followed = ContinuousClock.now
        liveGate.liveActivities.trackActivity(tag: "match-4", currentState: .active, pushTokens: tokens, states: states)
        try await transport.waitForReports(1)
        #expect(ContinuousClock.now - followed >= .milliseconds(300))
        #expect(kinds(transport.reports) == ["state:active"])
        await liveGate.shutdown()
    }

    @Test func anActivityThatEndsBeforeItsTokenReportsItsStatesInOrderAtOnce() async throws {
        let transport = RecordingTransport()
        let liveGate = try sdk(transport)
        let (tokens, _) = AsyncStream.makeStream(of: Data.self)
        let (states, stateSource) = AsyncStream.makeStream(of: LiveActivityState.self)
        liveGate.liveActivities.trackActivity(tag: "match-5", currentState: .active, pushTokens: tokens, states: states)
        stateSource.yield(.stale)
        stateSource.yield(.dismissed)
        try await transport.waitUntil { $0.last?.fields["state"] == "dismissed" }
        // A newer state replaces one that still waits, so some may be left out; none goes out of order,
        // and the last is the activity's end.
        let sent = kinds(transport.reports)
        #expect(sent.last == "state:dismissed", "\(sent)")
        #expect(sent == ["state:active", "state:stale", "state:dismissed"].filter(sent.contains), "\(sent)")
        let times = transport.reports.compactMap { $0.fields["reported_at"] }
        #expect(times == times.sorted() && times.count == sent.count, "\(times)")
        await liveGate.shutdown()
    }
}
