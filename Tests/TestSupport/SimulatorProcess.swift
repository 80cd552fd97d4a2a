import APNsClient
import Foundation
import Testing

/// `livegate apns-sim` as a separate process, as a script or another client runs it: over TLS with a
/// certificate it writes, one provider key, and a control client that trusts it.
package enum SimulatorProcess {
    /// `livegate apns-sim --tls` on a free port, its certificate written to `certificate`, with `options`.
    package static func start(keys: TestKeyPair, certificate: String, options: [String] = []) async throws -> (BackgroundProcess, Int) {
        for _ in 0..<3 {
            let port = LiveGateBinary.freePort()
            let process = try BackgroundProcess(
                LiveGateBinary.path,
                [
                    "apns-sim", "--port", String(port), "--tls", "--tls-certificate-out", certificate,
                    "--provider-key", "KEY1234567:TEAM123456:\(keys.folder.path)/key.p8",
                ] + options)
            if (try? await BackgroundProcess.waitForPort(port)) != nil, await isSimulator(port: port, caFile: certificate) {
                return (process, port)
            }
            process.stop()
        }
        throw Subprocess.Failure(description: "livegate apns-sim did not start")
    }

    /// Whether what answers on `port` is the simulator serving the certificate in `caFile`: a port found
    /// free can be taken by a parallel test before the simulator binds it.
    package static func isSimulator(port: Int, caFile: String) async -> Bool {
        let client = CurlHTTP2Client(configuration: .init(trustedCAFile: caFile))
        let response = try? await client.send(HTTP2Request(url: "https://127.0.0.1:\(port)/3/device/00", body: Array("{}".utf8)))
        await client.shutdown()
        guard let response else { return false }
        return response.status == 403 && String(decoding: response.body, as: UTF8.self) == #"{"reason":"MissingProviderToken"}"#
    }

    /// The simulator as a process with `options`, over TLS, and a control client trusting it.
    package static func with(
        options: [String],
        _ body: (_ port: Int, _ keys: TestKeyPair, _ certificate: String, _ control: SimulatorControlClient) async throws -> Void
    ) async throws {
        let keys = try await TestKeyPair.make()
        defer { keys.remove() }
        let certificate = keys.folder.appendingPathComponent("apns-sim.pem").path
        let (simulator, port) = try await start(keys: keys, certificate: certificate, options: options)
        defer { simulator.stop() }
        let control = SimulatorControlClient(port: port, caFile: certificate)
        do {
            try await body(port, keys, certificate, control)
        } catch {
            await control.shutdown()
            throw error
        }
        await control.shutdown()
    }

    /// `GET /_sim/settings`, parsed.
    package static func settings(_ control: SimulatorControlClient) async throws -> [String: Any] {
        let response = try await control.request("GET", "/_sim/settings")
        #expect(response.status == 200, "\(response.text)")
        return try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    }

    /// Each connection's figures from `GET /_sim/settings`.
    package static func connections(_ control: SimulatorControlClient) async throws -> [[String: Any]] {
        try #require(try await settings(control)["connections"] as? [[String: Any]])
    }
}
