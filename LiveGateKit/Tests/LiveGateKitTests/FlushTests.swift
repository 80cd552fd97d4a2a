import Foundation
import LiveGateKit
import Testing

/// `flush()` says whether everything went, and never keeps its caller waiting while the device is offline,
/// when its task is cancelled, or past its deadline.
@Suite("LiveGateKit's flush")
struct FlushTests {
    /// Long enough that a flush which waited for the next try by the clock would fail these tests.
    private static let longBackoff = RetryPolicy(baseDelay: .seconds(600), maximumDelay: .seconds(600))

    @Test func offlineItTriesAtOnceAndReturnsFalseThenTrueOnceBackOnline() async throws {
        let transport = RecordingTransport()
        transport.failure = .offline
        let liveGate = try SDKFixture.liveGate(transport, retry: Self.longBackoff)
        await liveGate.liveActivities.reportUpdateToken(SDKFixture.token(0x01), tag: "order-1")
        let started = ContinuousClock.now
        #expect(await liveGate.flush() == false)
        #expect(ContinuousClock.now - started < .seconds(30))
        #expect(transport.reports.isEmpty)

        transport.failure = nil
        // The last try failed and its 600 s backoff runs: flush cuts it short and sends now.
        #expect(await liveGate.flush() == true)
        #expect(transport.reports.map { $0.fields["push_token"] } == [SDKFixture.hex(0x01)])
        #expect(await liveGate.flush() == true, "nothing waits")
        await liveGate.shutdown()
    }

    @Test func aTryInFlightWhenFlushIsCalledAnswersItWhenItFails() async throws {
        let transport = RecordingTransport(holdsEachRequest: true)
        transport.failure = .offline
        let liveGate = try SDKFixture.liveGate(transport, retry: Self.longBackoff)
        await liveGate.liveActivities.reportUpdateToken(SDKFixture.token(0x06), tag: "order-6")
        let flushing = Task { await liveGate.flush() }
        try await Task.sleep(for: .milliseconds(100))
        // The try held since before the flush now fails: the flush learns it, not after the 600 s backoff.
        let released = ContinuousClock.now
        try await transport.releaseOne()
        #expect(await flushing.value == false)
        #expect(ContinuousClock.now - released < .seconds(30))
        #expect(transport.attempts == 1)
        await liveGate.shutdown()
    }

    @Test func aCancelledFlushReturnsFalseAtOnce() async throws {
        let transport = RecordingTransport()
        // The gateway asks for ten minutes: a wait flush keeps.
        transport.failure = .throttled(retryAfterSeconds: 600)
        let liveGate = try SDKFixture.liveGate(transport)
        await liveGate.liveActivities.reportUpdateToken(SDKFixture.token(0x02), tag: "order-2")
        let flushing = Task { await liveGate.flush() }
        try await Task.sleep(for: .milliseconds(200))
        let cancelled = ContinuousClock.now
        flushing.cancel()
        #expect(await flushing.value == false)
        #expect(ContinuousClock.now - cancelled < .seconds(30))
        await liveGate.shutdown()
    }

    @Test func aFlushWithADeadlineReturnsFalseWhenItPasses() async throws {
        let transport = RecordingTransport()
        transport.failure = .throttled(retryAfterSeconds: 600)
        let liveGate = try SDKFixture.liveGate(transport)
        await liveGate.liveActivities.reportUpdateToken(SDKFixture.token(0x03), tag: "order-3")
        let started = ContinuousClock.now
        #expect(await liveGate.flush(timeout: .milliseconds(300)) == false)
        let took = ContinuousClock.now - started
        #expect(took >= .milliseconds(300) && took < .seconds(30), "\(took)")
        // Within its deadline it says true.
        transport.failure = nil
        let online = try SDKFixture.liveGate(RecordingTransport())
        await online.liveActivities.reportUpdateToken(SDKFixture.token(0x04), tag: "order-4")
        #expect(await online.flush(timeout: .seconds(60)) == true)
        await liveGate.shutdown()
        await online.shutdown()
    }

    @Test func aFlushAfterShutdownDoesNotWait() async throws {
        let transport = RecordingTransport()
        transport.failure = .throttled(retryAfterSeconds: 600)
        let liveGate = try SDKFixture.liveGate(transport)
        await liveGate.liveActivities.reportUpdateToken(SDKFixture.token(0x05), tag: "order-5")
        let flushing = Task { await liveGate.flush() }
        try await Task.sleep(for: .milliseconds(200))
        await liveGate.shutdown()
        #expect(await flushing.value == false)
    }
}
