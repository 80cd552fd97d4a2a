import APNsClient
import APNsCore
import APNsSimulator
import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import Synchronization
import TestSupport
import Testing

/// The HTTP/2 client's response timeout is about connections, not requests: a push whose answer is
/// late on a connection that keeps answering is waited for and sent once; a connection that answers
/// nothing for the timeout is taken for dead, its pushes fail as timed out, and it is closed, so that
/// what is sent next goes on a new one.
@Suite("HTTP/2 response timeout")
struct ResponseTimeoutTests {
    typealias Faults = APNsSimulatorFaultTests

    /// One connection, a 3 s timeout: the slow push's answer comes after 6 s while quick pushes, sent
    /// one after another, are answered on the same connection meanwhile. The timeout is 30 times the
    /// quick pushes' spacing, so a machine that stalls the test, the client or the simulator for a
    /// second or two (a loaded CI machine does) still sees the connection answering.
    @Test func aLateAnswerOnAConnectionThatKeepsAnsweringIsWaitedFor() async throws {
        let transport = HTTP2ClientConfiguration(responseTimeout: .seconds(3), maximumConnectionsPerHost: 1)
        try await Faults.withSimulator(transport: transport) { simulator, app, sender, _ in
            let destination = try #require(app.destination)
            #expect(Faults.isDelivered(await sender.send(Faults.push(0), to: destination)))
            let slow = Faults.push(1)
            simulator.setBehavior(.delay(milliseconds: 6_000), for: slow.deviceToken.hex)
            let answered = Mutex(false)
            let slowTask = Task {
                defer { answered.withLock { $0 = true } }
                return await sender.send([slow], to: destination)
            }
            // Until the slow answer comes: a quick push every 100 ms keeps the connection answering.
            var quick: [APNsSendResult] = []
            while !answered.withLock({ $0 }) {
                try await Task.sleep(for: .milliseconds(100))
                quick.append(await sender.send(Faults.push(2 + quick.count), to: destination))
            }
            let late = await slowTask.value
            #expect(late.count == 1 && Faults.isDelivered(late[0]), "\(late)")
            #expect(quick.allSatisfy(Faults.isDelivered), "\(quick.filter { !Faults.isDelivered($0) }.prefix(3))")
            let received = simulator.received
            #expect(received.filter { $0.deviceToken == slow.deviceToken.hex }.count == 1, "sent once")
            #expect(Set(received.map(\.connection)).count == 1, "one connection throughout")
        }
    }

    /// A 500 ms timeout and an answer held for 5 s on a connection that carries nothing else: the push
    /// fails as timed out (had the client waited, the answer would have been a 200), and the next push
    /// goes out on a new connection, not on the silent one.
    @Test func aConnectionThatAnswersNothingForTheTimeoutIsClosed() async throws {
        let transport = HTTP2ClientConfiguration(responseTimeout: .milliseconds(500), maximumConnectionsPerHost: 1)
        try await Faults.withSimulator(transport: transport) { simulator, app, sender, _ in
            let destination = try #require(app.destination)
            #expect(Faults.isDelivered(await sender.send(Faults.push(0), to: destination)))
            let silent = Faults.push(1)
            simulator.setBehavior(.delay(milliseconds: 5_000), for: silent.deviceToken.hex)
            let result = await sender.send(silent, to: destination)
            #expect(Faults.transportError(result) == .timedOut, "\(result)")
            #expect(Faults.isDelivered(await sender.send(Faults.push(2), to: destination)))
            let connections = simulator.received.map(\.connection)
            #expect(connections.count == 3)
            #expect(connections[0] == connections[1], "the silent push went on the open connection")
            #expect(connections[2] != connections[1], "the next push went on a new connection")
        }
    }
}
