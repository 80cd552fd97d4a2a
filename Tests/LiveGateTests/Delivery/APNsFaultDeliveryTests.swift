import APNsClient
import APNsCore
import APNsSimulator
import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import NIOConcurrencyHelpers
import PostgresClient
import TestSupport
import Testing

/// A fan-out of 300 devices meets each APNs fault part-way; once the fault clears every device has the
/// update, the dispatch counts each device once as sent, and the log has nothing to report. Where the
/// protocol tells which pushes were not processed (a GOAWAY's later streams, REFUSED_STREAM, a refused
/// handshake, a 200 whose stream broke after its headers) each device gets it exactly once; where an
/// answer was lost after APNs took the push (a reset connection, another stream reset) the push is sent
/// again, so exactly those devices may get it twice, and never more.
@Suite("Delivery through APNs faults", .heavy, .requiresPostgres)
struct APNsFaultDeliveryTests {
    static let devices = (0..<300).map { token(numbered: $0) }

    /// Quick retries in place; a dispatch handed back, or a page's unanswered pushes, wait a fraction of
    /// a second rather than minutes.
    static let settings: DeliverySettings = {
        var settings = DeliveryHarness.testSettings
        settings.resendRetry = RetryPolicy(maximumAttempts: 10, baseDelay: .milliseconds(200), maximumDelay: .seconds(1))
        settings.handBackRetry = settings.resendRetry
        return settings
    }()

    /// Registers the devices, answers each push after `answerDelay` ms (so that streams are in flight when
    /// a fault strikes), posts an update and delivers it until the dispatch is finished; returns its id.
    /// A test whose `whileSending` sets a fault once pushes arrive answers slower, so that the fan-out is
    /// still under way however late a loaded machine runs it.
    static func fanOut(
        _ harness: DeliveryHarness, answerDelay: Int = 10, whileSending: @escaping @Sendable () async throws -> Void = {}
    ) async throws -> String {
        try await harness.database.insertActivityTokens(devices, app: harness.tenant.app, activityID: "game-42")
        for device in devices { harness.simulator.setBehavior(.delay(milliseconds: answerDelay), for: device) }
        let id = try await harness.update(#""content_state":{"home":3,"away":2}"#)
        async let during: Void = whileSending()
        let deadline = ContinuousClock.now + .seconds(60)
        // A dispatch handed back for later (APNs unreachable) is claimed again once it is due.
        while try await harness.dispatch(id).require("status", as: String.self) != "done", ContinuousClock.now < deadline {
            try await harness.engine.deliverDue()
            try await Task.sleep(for: .milliseconds(50))
        }
        try await during
        return id
    }

    /// Every device got the update: `twice` exactly twice (their answers were lost), any of `mayRepeat`
    /// once or twice (their answers may have been lost), every other one once. The dispatch is done with
    /// each device counted once as sent, none failed; the log is empty. Returns the dispatch's retries.
    @discardableResult
    static func expectEveryDeviceServed(
        _ harness: DeliveryHarness, dispatch id: String, twice: Set<String> = [], mayRepeat: Set<String> = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Int {
        let received = harness.simulator.received
        let counts = Dictionary(received.map { ($0.deviceToken, 1) }, uniquingKeysWith: +)
        #expect(Set(counts.keys) == Set(devices), "every device, and only they", sourceLocation: sourceLocation)
        // Where each copy came, and which connections a fault closed: what a failure needs explained.
        let report = harness.simulator.faultReport
        func arrivals(_ device: String) -> String {
            "\(device.suffix(8)) arrived on connections \(received.filter { $0.deviceToken == device }.map(\.connection)); "
                + "closed by a fault: \(report.closedConnections), connections: \(report.connections)"
        }
        for device in devices {
            let count = counts[device] ?? 0
            if twice.contains(device) {
                #expect(count == 2, "\(arrivals(device))", sourceLocation: sourceLocation)
            } else if mayRepeat.contains(device) {
                #expect((1...2).contains(count), "\(arrivals(device))", sourceLocation: sourceLocation)
            } else {
                #expect(count == 1, "\(arrivals(device))", sourceLocation: sourceLocation)
            }
        }
        let payloads = Set(received.map(\.payload))
        #expect(payloads.count == 1, "the same update each time", sourceLocation: sourceLocation)
        let row = try await harness.dispatch(id)
        #expect(try row.require("status", as: String.self) == "done", sourceLocation: sourceLocation)
        #expect(try row.require("sent_count", as: Int.self) == devices.count, "each device counted once", sourceLocation: sourceLocation)
        #expect(try row.require("failed_count", as: Int.self) == 0, sourceLocation: sourceLocation)
        #expect(try await harness.log().isEmpty, "nothing to report", sourceLocation: sourceLocation)
        return try row.require("retried_count", as: Int.self)
    }

    /// The devices whose first copy came on a connection a fault closed: their answers may have been lost.
    static func onClosedConnections(_ simulator: APNsSimulator) -> Set<String> {
        let closed = Set(simulator.faultReport.closedConnections)
        var seen: Set<String> = []
        var first: Set<String> = []
        for push in simulator.received where seen.insert(push.deviceToken).inserted && closed.contains(push.connection) {
            first.insert(push.deviceToken)
        }
        return first
    }

    /// One connection at a time, so that a GOAWAY always finds streams sent after its last one (all 64
    /// pushes in flight ride the one connection) and the second connection always reaches 40 streams
    /// (300 devices need more than two connections' 40): spread over four, they could all stop short.
    @Test func aGoAwayMidFanOutServesEveryDeviceOnce() async throws {
        try await DeliveryHarness.with(settings: Self.settings, connectionsPerHost: 1) { harness in
            harness.simulator.setGoAway(GoAwayFault(afterStreams: 40, connections: 2))
            let id = try await Self.fanOut(harness)
            let retried = try await Self.expectEveryDeviceServed(harness, dispatch: id)
            #expect(harness.simulator.faultReport.goAwaysSent == 2)
            #expect(retried > 0, "the streams after each GOAWAY's last one were sent again")
            #expect(Set(harness.simulator.received.map(\.connection)).count >= 3)
        }
    }

    /// GOAWAY after every 40 streams, for as long as the fan-out lasts: it goes on connection after
    /// connection.
    @Test func goAwaysOnEveryConnectionServeEveryDeviceOnce() async throws {
        try await DeliveryHarness.with(settings: Self.settings) { harness in
            harness.simulator.setGoAway(GoAwayFault(afterStreams: 40))
            let id = try await Self.fanOut(harness)
            try await Self.expectEveryDeviceServed(harness, dispatch: id)
            // A GOAWAY from each connection that reached 40 streams, and several of them. Not always 7
            // (300 ÷ 40): on a busy machine libcurl may open a connection while another is still in its
            // handshake, and connections that share the pushes can end below 40.
            let perConnection = Dictionary(grouping: harness.simulator.received, by: \.connection).mapValues(\.count)
            let full = perConnection.values.filter { $0 >= 40 }.count
            #expect(full >= 3, "pushes per connection: \(perConnection)")
            #expect(harness.simulator.faultReport.goAwaysSent >= full, "pushes per connection: \(perConnection)")
        }
    }

    @Test func streamsRefusedMidFanOutAreSentAgainOnce() async throws {
        try await DeliveryHarness.with(settings: Self.settings) { harness in
            harness.simulator.setFault(.resetStream(.refusedStream), everyNthPush: 50, times: 4)
            let id = try await Self.fanOut(harness)
            let retried = try await Self.expectEveryDeviceServed(harness, dispatch: id)
            #expect(harness.simulator.faultReport.streamsReset == 4)
            #expect(retried == 4)
        }
    }

    /// A stream reset with INTERNAL_ERROR after APNs took the push: the gateway cannot know, sends it
    /// again, and that device alone gets it twice (the same content-state: the same on screen).
    @Test func streamsResetAfterAcceptingAreSentAgainAndCountedOnce() async throws {
        try await DeliveryHarness.with(settings: Self.settings) { harness in
            harness.simulator.setFault(.resetStream(.internalError), everyNthPush: 50, times: 4)
            let id = try await Self.fanOut(harness)
            let reset = Set(harness.simulator.received.filter { $0.fault != nil }.map(\.deviceToken))
            #expect(reset.count == 4)
            let retried = try await Self.expectEveryDeviceServed(harness, dispatch: id, twice: reset)
            #expect(retried == 4)
        }
    }

    /// The connection is reset after APNs took device 150's push: that push, and any other whose answer
    /// the reset took, are sent again.
    @Test func aConnectionResetMidFanOutLosesNoDevice() async throws {
        try await DeliveryHarness.with(settings: Self.settings) { harness in
            let struck = token(numbered: 150)
            harness.simulator.setFault(.closeBeforeAnswer, for: struck)
            let id = try await Self.fanOut(harness)
            #expect(harness.simulator.faultReport.closedConnections.count == 1)
            let mayRepeat = Self.onClosedConnections(harness.simulator)
            try await Self.expectEveryDeviceServed(harness, dispatch: id, twice: [struck], mayRepeat: mayRepeat.subtracting([struck]))
        }
    }

    /// The connection closes after device 150's answer's 200 headers: that answer counts, and is not
    /// sent again; pushes still waiting on the connection are.
    @Test func aConnectionClosedMidAnswerLosesNoDevice() async throws {
        try await DeliveryHarness.with(settings: Self.settings) { harness in
            let struck = token(numbered: 150)
            harness.simulator.setFault(.closeAfterHeaders, for: struck)
            let id = try await Self.fanOut(harness)
            #expect(harness.simulator.faultReport.closedConnections.count == 1)
            let mayRepeat = Self.onClosedConnections(harness.simulator).subtracting([struck])
            try await Self.expectEveryDeviceServed(harness, dispatch: id, mayRepeat: mayRepeat)
        }
    }

    /// A GOAWAY part-way, and the next three connections' handshakes refused.
    @Test func handshakesRefusedAfterAGoAwayServeEveryDeviceOnce() async throws {
        try await DeliveryHarness.with(settings: Self.settings) { harness in
            // The first connection must open: handshakes are refused once it is up, and only then does it
            // go away (at once if it carried 100 streams already), so no reconnection comes first.
            let id = try await Self.fanOut(harness, answerDelay: 100) {
                try await Self.waitUntil { harness.simulator.received.count >= 20 }
                harness.simulator.setTLSRefusal(.connections(3))
                harness.simulator.setGoAway(GoAwayFault(afterStreams: 100, connections: 1))
            }
            try await Self.expectEveryDeviceServed(harness, dispatch: id)
            #expect(harness.simulator.faultReport.tlsRefused == 3)
        }
    }

    /// Part-way, every open connection goes away and no handshake succeeds for 2.5 s, far longer than a
    /// push's retries last (and long enough for a busy machine to meet it): the pushes that got no
    /// answer are sent again once APNs can be reached, and pages none of whose pushes got through are
    /// handed back and sent later. With one page for all 300 devices, the page's unanswered pushes
    /// outnumber those allowed in flight at once.
    @Test(arguments: [100, 300])
    func anOutageLongerThanThePushRetriesServesEveryDeviceOnce(pageSize: Int) async throws {
        var settings = Self.settings
        settings.pageSize = pageSize
        try await DeliveryHarness.with(settings: settings) { harness in
            let outage = NIOLockedValueBox<ContinuousClock.Instant?>(nil)
            let id = try await Self.fanOut(harness, answerDelay: 100) {
                try await Self.waitUntil { harness.simulator.received.count >= 20 }
                harness.simulator.setTLSRefusal(.during(.milliseconds(2_500)))
                outage.withLockedValue { $0 = .now }
                // Each connection open now goes away after its next stream.
                harness.simulator.setGoAway(GoAwayFault(afterStreams: 1, connections: harness.simulator.faultReport.connections))
            }
            try await Self.expectEveryDeviceServed(harness, dispatch: id)
            #expect(harness.simulator.faultReport.tlsRefused >= 2, "\(harness.simulator.faultReport)")
            // Probes, not a handshake per push and retry: 1,200 to 2,000 in this test before the backoff.
            #expect(harness.simulator.faultReport.tlsRefused < 150, "\(harness.simulator.faultReport)")
            let started = try #require(outage.withLockedValue { $0 })
            #expect(ContinuousClock.now - started >= .milliseconds(2_500), "the fan-out outlasted the outage")
        }
    }

    /// A fault that outlasts every retry: the device is given up, counted failed once, and logged once
    /// with what may have happened; every other device is served.
    @Test func aPushWhoseAnswerIsLostOnEveryTryIsLoggedOnce() async throws {
        var settings = Self.settings
        settings.pushRetry = RetryPolicy(maximumAttempts: 2, baseDelay: .milliseconds(5), maximumDelay: .milliseconds(10))
        settings.resendRetry = RetryPolicy(maximumAttempts: 2, baseDelay: .milliseconds(50), maximumDelay: .milliseconds(100))
        settings.handBackRetry = settings.resendRetry
        try await DeliveryHarness.with(settings: settings) { harness in
            let lost = token(numbered: 7)
            harness.simulator.setFault(.resetStream(.refusedStream), for: lost, times: 100)
            let id = try await Self.fanOut(harness)
            let received = harness.simulator.received.map(\.deviceToken)
            #expect(received.count == Self.devices.count - 1 && Set(received) == Set(Self.devices).subtracting([lost]))
            let row = try await harness.dispatch(id)
            #expect(try row.require("status", as: String.self) == "done")
            #expect(try row.require("sent_count", as: Int.self) == Self.devices.count - 1)
            #expect(try row.require("failed_count", as: Int.self) == 1)
            #expect(try row.require("retried_count", as: Int.self) == 3, "two tries, then one more round of two")
            let log = try await harness.log()
            #expect(log.count == 1)
            let entry = try #require(log.first)
            #expect(try entry.require("masked_token", as: String.self) == String(lost.suffix(8)))
            let message = try entry.require("message", as: String.self)
            #expect(message.hasPrefix("APNs's answer was lost after 4 tries (last: lostAfterSending: "), "\(message)")
            #expect(message.hasSuffix("the connection broke after the push went out, so the device may have received it."), "\(message)")
        }
    }

    static func waitUntil(timeout: Duration = .seconds(30), _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            guard ContinuousClock.now < deadline else { throw Subprocess.Failure(description: "timed out waiting") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
