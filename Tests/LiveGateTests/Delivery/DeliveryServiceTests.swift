import APNsSimulator
import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import Logging
import PostgresClient
import ServiceLifecycle
import TestSupport
import Testing

@Suite("Delivery as a service: woken by the API, stopped gracefully, shared between gateways", .requiresPostgres)
struct DeliveryServiceTests {
    /// Runs `engine` as `serve` does, for the length of `body`, then shuts it down gracefully.
    static func running(_ engine: DeliveryEngine, _ body: () async throws -> Void) async throws {
        let group = ServiceGroup(configuration: .init(services: [engine], logger: .quiet))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            do {
                try await body()
            } catch {
                await group.triggerGracefulShutdown()
                try? await tasks.waitForAll()
                throw error
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }

    static func waitUntil(_ what: String, timeout: Duration = .seconds(60), _ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try await condition() { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("timed out waiting until \(what)")
    }

    @Test func anAcceptedMessageIsSentAtOnceNotAtTheNextPoll() async throws {
        var settings = DeliveryHarness.testSettings
        settings.pollInterval = .seconds(600)
        try await DeliveryHarness.with(settings: settings) { harness in
            try await harness.register(token(0x9a), device: "phone")
            try await Self.running(harness.engine) {
                try await harness.update(#""content_state":{"n":1}"#)
                // From the 201: building the test's router and posting are not delivery's time.
                let accepted = ContinuousClock.now
                try await Self.waitUntil("the push arrived") { harness.simulator.received.count == 1 }
                #expect(
                    ContinuousClock.now - accepted < .seconds(120),
                    "the doorbell woke delivery, not the 600 s poll (the bound leaves room for a saturated machine)")
            }
            #expect(harness.simulator.received.map(\.deviceToken) == [token(0x9a)])
        }
    }

    @Test func aGracefulStopHandsBackTheRestOfTheFanOut() async throws {
        var settings = DeliveryHarness.testSettings
        settings.pageSize = 5
        settings.maximumPushesInFlight = 5
        try await DeliveryHarness.with(settings: settings) { harness in
            let devices = (0..<40).map { token(numbered: $0) }
            // Eight pages of 300 ms: the fan-out is still under way when the stop comes, however late a
            // loaded machine runs the test.
            for (index, device) in devices.enumerated() {
                harness.simulator.setBehavior(.delay(milliseconds: 300), for: device)
                try await harness.register(device, device: "d\(index)")
            }
            var id = ""
            try await Self.running(harness.engine) {
                id = try await harness.update(#""content_state":{"n":2}"#)
                try await Self.waitUntil("a page went out") { harness.simulator.received.count >= 5 }
            }
            let handedBack = try await harness.dispatch(id)
            #expect(try handedBack.require("status", as: String.self) == "pending")
            #expect(try handedBack.require("waiting", as: Bool.self) == false, "due at once, for any gateway")
            let sent = try handedBack.require("sent_count", as: Int.self)
            #expect(sent > 0 && sent < devices.count, "stopped after a page, not at the end")

            let other = harness.anotherEngine(worker: "other-gateway")
            try await other.deliverDue()
            await other.shutdown()
            #expect(Set(harness.simulator.received.map(\.deviceToken)) == Set(devices))
            let done = try await harness.dispatch(id)
            #expect(try done.require("status", as: String.self) == "done")
            #expect(try done.require("sent_count", as: Int.self) == devices.count)
        }
    }

    @Test func twoGatewaysShareTheWorkAndSendEachPushOnce() async throws {
        try await DeliveryHarness.with { harness in
            var expected: [String] = []
            for game in 0..<12 {
                for phone in 0..<3 {
                    let device = token(numbered: game * 10 + phone)
                    expected.append(device)
                    try await harness.register(device, device: "g\(game)-p\(phone)", tag: "game-\(game)")
                }
                try await harness.update(#""content_state":{"n":\#(game)}"#, activityID: "game-\(game)")
            }
            let other = harness.anotherEngine(worker: "other-gateway")
            async let mine = harness.engine.deliverDue()
            async let theirs = other.deliverDue()
            let handled = try await mine + theirs
            await other.shutdown()
            #expect(handled == 12, "each dispatch claimed by exactly one gateway")
            let received = harness.simulator.received.map(\.deviceToken)
            #expect(received.count == expected.count, "no push sent twice")
            #expect(Set(received) == Set(expected))
        }
    }
}
