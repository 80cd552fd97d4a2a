import Foundation

/// `livegate serve` as a process of its own, for tests that crash it, stop it or scrape it.
package enum GatewayProcess {
    /// Starts it on a free port with `environment` and returns once `/healthz` answers 200 (three tries:
    /// the free port may be taken in between).
    package static func start(environment: [String: String]) async throws -> (process: BackgroundProcess, port: Int) {
        try await start(environment: environment, port: nil)
    }

    /// `port`: this one (a gateway started again where it was); nil: a free one.
    package static func start(environment: [String: String], port fixed: Int?) async throws -> (process: BackgroundProcess, port: Int) {
        for _ in 0..<3 {
            let port = fixed ?? LiveGateBinary.freePort()
            let process = try BackgroundProcess(
                LiveGateBinary.path, ["serve", "--host", "127.0.0.1", "--port", String(port)], environment: environment)
            let healthy = try? await waitUntil("the gateway answers", timeout: .seconds(60)) {
                (try? await CurlHTTPClient.request("GET", "http://127.0.0.1:\(port)/healthz"))?.status == 200
            }
            if healthy != nil { return (process, port) }
            process.stop()
        }
        throw Subprocess.Failure(description: "livegate serve did not start")
    }

    /// Polls `condition` every 10 ms until it holds; throws after `timeout`.
    package static func waitUntil(
        _ what: String, timeout: Duration = .seconds(30), _ condition: () async throws -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try await condition() { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw Subprocess.Failure(description: "timed out waiting until \(what)")
    }
}
