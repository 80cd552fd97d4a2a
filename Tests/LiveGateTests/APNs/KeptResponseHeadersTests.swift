import APNsClient
import APNsSimulator
import Foundation
import Testing
import TestSupport

/// A client keeps only the answer headers it names, whatever their case; a header the server echoes
/// (APNs echoes `apns-id`) comes back with each request's own value, and one the server makes up with
/// the server's.
@Suite("HTTP/2 client's kept answer headers")
struct KeptResponseHeadersTests {
    @Test func onlyNamedHeadersAreKeptAndEachAnswerCarriesItsOwnEcho() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kept-headers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let identity = try SelfSignedCertificate(host: "127.0.0.1")
        let caFile = folder.appendingPathComponent("simulator.pem").path
        try Data(identity.certificatePEM.utf8).write(to: URL(fileURLWithPath: caFile))
        let simulator = APNsSimulator(
            configuration: SimulatorConfiguration(
                tls: .pem(certificate: identity.certificatePEM, privateKey: identity.privateKeyPEM)),
            logger: .quiet)
        let port = try await simulator.start()
        let client = CurlHTTP2Client(configuration: .init(trustedCAFile: caFile, responseHeaderNames: ["APNs-ID"]))

        // Even places name their push; odd ones leave it to the server. No provider token: each is
        // answered 403, with its `apns-id`, a content type and a body.
        let ids = (0..<60).map { $0.isMultiple(of: 2) ? UUID().uuidString.lowercased() : nil }
        let requests = ids.enumerated().map { index, id in
            HTTP2Request(
                url: "https://127.0.0.1:\(port)/3/device/\(String(format: "%064x", index))",
                headers: id.map { [("apns-id", $0)] } ?? [("apns-push-type", "liveactivity")],
                body: Array(#"{"aps":{"event":"update","content-state":{}}}"#.utf8))
        }
        let results = await client.send(batch: requests)
        #expect(results.count == ids.count)
        var madeUp: Set<String> = []
        for (result, id) in zip(results, ids) {
            guard case .success(let answer) = result else {
                Issue.record("no answer: \(result)")
                continue
            }
            #expect(answer.status == 403)
            #expect(answer.headers.map(\.name) == ["apns-id"], "only the named header is kept")
            #expect(!answer.body.isEmpty)
            if let id {
                #expect(answer.headers["apns-id"] == id)
            } else {
                let made = try #require(answer.headers["apns-id"])
                #expect(UUID(uuidString: made) != nil && !ids.contains(made))
                madeUp.insert(made)
            }
        }
        #expect(madeUp.count == ids.count / 2)

        await client.shutdown()
        await simulator.stop()
    }
}
