import APNsClient
import Foundation
import TestSupport
import Testing

/// aioapns (PyPI), a Python APNs client people send Live Activities with, against `livegate apns-sim`:
/// it sends `host` rather than `:authority` and reads every DATA frame as JSON, both of which APNs
/// copes with, so the simulator must too. `scripts/install-deps.sh test` installs it.
@Suite("aioapns sends to the simulator as to APNs", .heavy)
struct AioapnsInteropTests {
    static let script = Subprocess.repositoryRoot.appendingPathComponent("Tests/APNsPeers/aioapns_send.py").path

    @Test func everyPushIsAnsweredAndRecordedAndAGoneTokenIsA410() async throws {
        let keys = try await TestKeyPair.make()
        defer { keys.remove() }
        let certificateFile = keys.folder.appendingPathComponent("sim-cert.pem").path
        let (simulator, port) = try await SimulatorProcess.start(
            keys: keys, certificate: certificateFile, options: ["--latency-ms", "20"])
        defer { simulator.stop() }
        let control = SimulatorControlClient(port: port, caFile: certificateFile)
        let gone = String(repeating: "8b", count: 32)
        #expect(try await control.request("PUT", "/_sim/tokens/\(gone)", body: #"{"status":410}"#).status == 200)

        let output = try await Subprocess.run(
            "/usr/bin/env", ["python3", Self.script, String(port), certificateFile, "\(keys.folder.path)/key.p8", "300", gone])

        #expect(output.status == 0, "aioapns_send.py exited \(output.status)\n--- stdout\n\(output.stdout)\n--- stderr\n\(output.stderr)")
        let result = try JSONSerialization.jsonObject(with: Data(output.lastLine.utf8)) as? [String: Any]
        #expect(result?["statuses"] as? [String: Int] == ["200": 300])
        #expect(result?["gone"] as? [AnyHashable] == ["410", "Unregistered"])
        let pushes = try await control.pushes()
        await control.shutdown()
        #expect(Set(pushes.compactMap { $0["device_token"] as? String }) == Set((1...300).map { String(format: "%064x", $0) }))
        #expect(pushes.count == 300)
        let first = pushes.first(where: { $0["device_token"] as? String == String(format: "%064x", 1) })
        let headers = first?["headers"] as? [String: String]
        #expect(headers?["apns-push-type"] == "liveactivity")
        #expect(headers?["apns-priority"] == "10")
        #expect(((first?["payload"] as? [String: Any])?["aps"] as? [String: Any])?["event"] as? String == "update")
    }
}
