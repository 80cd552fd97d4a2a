import APNsClient
import Foundation

/// Calls a simulator's `/_sim/` control API over HTTPS, trusting the simulator's certificate, as a
/// test or script that runs it as a separate process would.
package final class SimulatorControlClient: @unchecked Sendable {
    package let baseURL: String
    /// Shut down and dropped at `shutdown()`, before the simulator stops: a TLS server stopped while a
    /// connection is open waits (NIOSSL: 5 s) for the client's close_notify.
    private var client: CurlHTTP2Client?

    package init(port: Int, caFile: String) {
        baseURL = "https://127.0.0.1:\(port)"
        client = CurlHTTP2Client(configuration: .init(responseTimeout: .milliseconds(10_000), trustedCAFile: caFile))
    }

    package func request(_ method: String, _ path: String, body: String? = nil) async throws -> HTTP2Response {
        guard let client else { throw ControlFailure(description: "the control client is shut down") }
        return try await client.send(
            HTTP2Request(
                url: baseURL + path, method: method, headers: body == nil ? [] : [("content-type", "application/json")],
                body: Array((body ?? "").utf8)))
    }

    /// `GET /_sim/pushes`, parsed; fails the test's expectations through the thrown error otherwise.
    package func pushes() async throws -> [[String: Any]] {
        let response = try await request("GET", "/_sim/pushes")
        guard response.status == 200, let list = try JSONSerialization.jsonObject(with: Data(response.body)) as? [[String: Any]] else {
            throw ControlFailure(
                description: "GET /_sim/pushes answered \(response.status): \(String(decoding: response.body, as: UTF8.self))")
        }
        return list
    }

    package func shutdown() async {
        await client?.shutdown()
        client = nil
    }

    package struct ControlFailure: Error, CustomStringConvertible {
        package let description: String
    }
}

extension HTTP2Response {
    package var text: String { String(decoding: body, as: UTF8.self) }
}
