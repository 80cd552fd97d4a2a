import APNsClient
import APNsCore
import APNsSimulator
import Foundation
import Testing
import TestSupport

/// libcurl 7.88 resets every stream whose answer had no body (APNs's 200) after the server has closed it;
/// the client leaves those resets unsent. A server that allows NIO's default of 200 resets in 30 s
/// before it takes a connection for a rapid-reset attack then carries every push on one connection.
@Suite("Resets of streams already closed")
struct ClosedStreamResetTests {
    @Test func aServerStrictAboutResetsAnswersEveryPushOnOneConnection() async throws {
        // The filter works by symbol name, as ELF resolves it; libcurl 8, as on macOS, sends no such resets.
        #if os(Linux)
            #expect(CurlHTTP2Client.leavesClosedStreamResetsUnsent, "libcurl's resets reach the filter in this build")
        #endif
        try await SimulatorFixture.with(streamResetLimit: (count: 200, window: .seconds(30))) { fixture in
            let sender = APNsSender(
                transport: .init(maximumConnectionsPerHost: 1, trustedCAFile: fixture.certificate.certificateFile))
            let destination = APNsDestination(
                endpoint: fixture.endpoint, bundleID: SimulatorFixture.bundleID, credentials: fixture.credentials)
            let pushes = (0..<600).map { index in
                LiveActivityPush(
                    deviceToken: PushToken(hex: String(format: "%064x", index + 1))!,
                    payload: Array(#"{"aps":{"timestamp":1685952000,"event":"update","content-state":{"n":\#(index)}}}"#.utf8),
                    priority: .immediate, expiresAt: Date(timeIntervalSince1970: 1_685_995_200))
            }
            let unsentBefore = CurlHTTP2Client.closedStreamResetsLeftUnsent
            let results = await sender.send(pushes, to: destination)
            await sender.shutdown()

            let answered200 = results.filter { if case .answered(let answer) = $0 { answer.status == 200 } else { false } }
            #expect(answered200.count == pushes.count, "\(results.filter { !answered200.contains($0) }.prefix(3))")
            #expect(fixture.simulator.received.count == pushes.count, "each push arrived once")
            // Process-wide and only ever growing: other tests' resets can add to it, none take away.
            #if os(Linux)
                #expect(CurlHTTP2Client.closedStreamResetsLeftUnsent - unsentBefore >= UInt64(pushes.count))
            #endif
        }
    }
}
