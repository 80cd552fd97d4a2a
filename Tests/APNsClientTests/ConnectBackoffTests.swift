import APNsClient
import APNsSimulator
import Foundation
import TestSupport
import Testing

/// An endpoint that takes no connection is probed, not met by every request with a handshake of its
/// own; once a probe gets an answer, the requests that waited for it go out.
@Suite("Backing off an endpoint that takes no connection")
struct ConnectBackoffTests {
    static func pushes(_ count: Int, from first: Int = 0, port: Int) -> [HTTP2Request] {
        (first..<first + count).map { CurlHTTP2ClientTests.push(port, scheme: "https", index: $0) }
    }

    static func failures(_ results: [Result<HTTP2Response, HTTP2TransportError>]) -> [HTTP2TransportError] {
        results.compactMap { if case .failure(let error) = $0 { error } else { nil } }
    }

    /// For a second, every handshake is refused while 20 requests come every 50 ms: each fails as a TLS
    /// failure, and the simulator sees the first connections and a probe for each doubling delay (100,
    /// 200, 400 ms...), not one handshake per request (400 before this backoff).
    @Test func refusedHandshakesAreProbedNotRepeatedByEveryRequest() async throws {
        try await SimulatorFixture.with { fixture in
            fixture.simulator.setTLSRefusal(.during(.seconds(60)))
            let client = CurlHTTP2Client(configuration: .init(threads: 1, trustedCAFile: fixture.certificate.certificateFile))
            var failed = 0
            var notTried = 0
            for round in 0..<20 {
                let results = await client.send(batch: Self.pushes(20, from: round * 20, port: fixture.port))
                let errors = Self.failures(results)
                #expect(errors.count == 20)
                #expect(errors.allSatisfy { $0.code == .tlsFailed }, "\(errors.first.map(String.init(describing:)) ?? "")")
                failed += errors.count
                notTried += errors.filter { $0.message.hasPrefix("not tried") }.count
                try await Task.sleep(for: .milliseconds(50))
            }
            await client.shutdown()
            #expect(failed == 400)
            let refused = fixture.simulator.faultReport.tlsRefused
            #expect(refused >= 2, "the first connection and at least one probe")
            #expect(refused <= 16, "\(refused) handshakes for 400 requests")
            #expect(notTried >= 400 - refused, "requests failed without a handshake say so")
        }
    }

    /// Handshakes are refused for 600 ms. Past that, the next request probes the endpoint, the 29 sent
    /// with it wait for what it finds, and all 30 are answered: none fails for the outage that ended.
    @Test func requestsWaitingForAProbeGoOutOnceItIsAnswered() async throws {
        try await SimulatorFixture.with { fixture in
            fixture.simulator.setTLSRefusal(.during(.milliseconds(600)))
            let client = CurlHTTP2Client(configuration: .init(threads: 1, trustedCAFile: fixture.certificate.certificateFile))
            let during = await client.send(batch: Self.pushes(20, port: fixture.port))
            #expect(Self.failures(during).count == 20)
            try await Task.sleep(for: .milliseconds(800))
            let after = await client.send(batch: Self.pushes(30, from: 20, port: fixture.port))
            #expect(Self.failures(after).isEmpty, "\(Self.failures(after).first.map(String.init(describing:)) ?? "")")
            #expect(after.allSatisfy { (try? $0.get().status).map { $0 > 0 } ?? false })
            // Answered again: no backoff is left, a lone request goes straight out.
            #expect(try await client.send(Self.pushes(1, from: 50, port: fixture.port)[0]).status > 0)
            await client.shutdown()
        }
    }
}
