import APNsClient
import APNsCore
import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import TestSupport
import Testing

@Suite("livegate apns-sim --tls", .heavy, .requiresPostgres)
struct APNsSimulatorTLSCommandTests {

    @Test func theCommandServesH2OverTLSWithACertificateItMade() async throws {
        let keys = try await TestKeyPair.make()
        defer { keys.remove() }
        let certificateFile = keys.folder.appendingPathComponent("apns-sim-cert.pem").path
        // A port found free can be taken by a parallel test before the simulator binds it: probe that
        // the simulator is what answers (and that the certificate it wrote is the one it serves).
        var started: (BackgroundProcess, Int)?
        for _ in 0..<3 where started == nil {
            let port = LiveGateBinary.freePort()
            let process = try BackgroundProcess(
                LiveGateBinary.path,
                [
                    "apns-sim", "--port", String(port), "--tls", "--tls-certificate-out", certificateFile,
                    "--provider-key", "KEY1234567:TEAM123456:\(keys.folder.path)/key.p8",
                ])
            if (try? await BackgroundProcess.waitForPort(port)) != nil,
                await SimulatorProcess.isSimulator(port: port, caFile: certificateFile)
            {
                started = (process, port)
            } else {
                process.stop()
            }
        }
        let (simulator, port) = try #require(started)
        defer { simulator.stop() }

        let pem = try String(contentsOfFile: certificateFile, encoding: .utf8)
        #expect(pem.hasPrefix("-----BEGIN CERTIFICATE-----") && !pem.contains("PRIVATE KEY"))

        // The gateway's sender, trusting that certificate as `LIVEGATE_APNS_CA_FILE` makes `serve` do.
        let sender = APNsSender(transport: .init(trustedCAFile: certificateFile))
        let control = SimulatorControlClient(port: port, caFile: certificateFile)
        let untrusting = APNsSender()
        let failure: (any Error)?
        do {
            try await TestDatabase.with { database in
                let app = try await database.makeSimulatorApp(port: port, keys: keys)
                let token = String(repeating: "9a", count: 32)
                let push = APNsSimulatorTests.push(token)
                let delivered = await sender.send(push, app: app)
                #expect(delivered == .answered(APNsResponse(status: 200, apnsID: "123e4567-e89b-12d3-a456-426614174000")), "\(delivered)")

                // Read back through the control API, as a script would.
                let pushes = try await control.pushes()
                #expect(pushes.count == 1)
                #expect(pushes.first?["device_token"] as? String == token)
                let aps = (pushes.first?["payload"] as? [String: Any])?["aps"] as? [String: Any]
                #expect(aps?["event"] as? String == "update")
                #expect((aps?["content-state"] as? [String: Any])?["currentHealthLevel"] as? Double == 0.941)

                // A token made to answer 410 through the control API.
                let gone = String(repeating: "8b", count: 32)
                let set = try await control.request("PUT", "/_sim/tokens/\(gone)", body: #"{"status":410}"#)
                #expect(set.status == 200)
                #expect(set.text == #"{"status":410,"reason":"Unregistered"}"#)
                let removed = await sender.send(APNsSimulatorTests.push(gone), app: app)
                guard case .answered(let response) = removed, response.status == 410, response.reason == .unregistered,
                    response.timestamp != nil
                else {
                    Issue.record("410 Unregistered with a timestamp expected, got \(removed)")
                    return
                }
                #expect(try await control.pushes().count == 1)

                // Without the certificate among its CAs, a client refuses the simulator: it is real TLS.
                guard case .unreachable(let error) = await untrusting.send(push, app: app) else {
                    Issue.record("a sender that does not trust the certificate got through")
                    return
                }
                #expect(error.code == .tlsFailed)
            }
            failure = nil
        } catch {
            failure = error
        }
        await untrusting.shutdown()
        await control.shutdown()
        await sender.shutdown()
        if let failure { throw failure }

        // h2 by ALPN, and 500 streams advertised, as APNs does (nghttp prints both; it does not verify).
        let frames = try await Subprocess.bash("nghttp -nv https://127.0.0.1:\(port)/3/device/00 2>&1")
        #expect(frames.stdout.contains("The negotiated protocol: h2"), "\(frames.stdout)")
        #expect(frames.stdout.contains("[SETTINGS_MAX_CONCURRENT_STREAMS(0x03):500]"), "\(frames.stdout)")
    }

    /// Without --tls-certificate-out the certificate goes to a temporary file, logged at info, and is
    /// removed when the simulator stops.
    @Test func withoutAnOutPathTheCertificateIsATemporaryFile() async throws {
        let port = LiveGateBinary.freePort()
        let output = try await Subprocess.bash(
            """
            log=$(mktemp) && trap 'rm -f "$log"' EXIT
            LIVEGATE_LOG_LEVEL=info '\(LiveGateBinary.path)' apns-sim --tls --port \(port) 2>"$log" & pid=$!
            for _ in $(seq 1 100); do grep -q 'APNs simulator listening' "$log" && break; sleep 0.1; done
            path=$(sed -n 's/.* path=\\([^ ]*\\) .*certificate written.*/\\1/p' "$log")
            echo "path=$path"
            [ -s "$path" ] && head -n 1 "$path"
            kill -TERM $pid; wait $pid; echo "status=$?"
            [ -e "$path" ] && echo "left behind" || echo "removed"
            cat "$log" >&2
            """)
        #expect(output.stdout.contains("path=/"), "\(output.stdout) \(output.stderr)")
        #expect(output.stdout.contains("-----BEGIN CERTIFICATE-----"), "\(output.stdout) \(output.stderr)")
        #expect(output.stdout.contains("status=0"), "\(output.stdout) \(output.stderr)")
        #expect(output.stdout.hasSuffix("removed\n"), "\(output.stdout) \(output.stderr)")
        #expect(output.stderr.contains("url=https://127.0.0.1:\(port)"), "\(output.stderr)")
    }

    @Test(arguments: [
        (
            ["--tls", "--tls-certificate", "cert.pem", "--tls-key", "key.pem"],
            "--tls makes its own certificate: give either --tls or --tls-certificate with --tls-key, not both"
        ),
        (
            ["--tls", "--tls-key", "key.pem"],
            "--tls makes its own certificate: give either --tls or --tls-certificate with --tls-key, not both"
        ),
        (["--tls-certificate-out", "cert.pem"], "--tls-certificate-out writes the certificate --tls makes: add --tls"),
        (["--tls-certificate", "cert.pem"], "--tls-certificate and --tls-key go together"),
    ])
    func conflictingTLSOptionsAreRefused(arguments: [String], message: String) async throws {
        let output = try await Subprocess.run(LiveGateBinary.path, ["apns-sim", "--port", "1"] + arguments)
        #expect(output.status == 64, "\(output.stderr)")
        #expect(output.stderr.contains("Error: \(message)"), "\(output.stderr)")
    }
}
