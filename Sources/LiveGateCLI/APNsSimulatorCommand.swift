import APNsSimulator
import ArgumentParser
import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import Logging
import ServiceLifecycle
import UnixSignals

struct APNsSimulatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apns-sim",
        abstract: "Serve an APNs look-alike for development and tests, until SIGINT or SIGTERM.",
        discussion: """
            Checks pushes as APNs does (path, topic, push type, priority, payload, and the provider token's \
            ES256 signature against the keys given) and answers with APNs's statuses and reasons. With --tls \
            it serves HTTP/2 over TLS with a self-signed certificate made at start (point an app at \
            https://HOST:PORT and the gateway's LIVEGATE_APNS_CA_FILE at the certificate); with \
            --tls-certificate and --tls-key, over TLS with that certificate; otherwise HTTP/2 without TLS \
            (http://HOST:PORT). Simulator-only control API, not part of APNs, on the same port: \
            GET/DELETE /_sim/pushes (accepted pushes), PUT/DELETE /_sim/tokens/HEX with {"status":410}, \
            {"status":500,"reason":"InternalServerError","times":1} or {"delay_ms":200}; broadcast channels \
            (POST/GET/DELETE /1/apps/BUNDLE/channels, GET /1/apps/BUNDLE/all-channels, POST \
            /4/broadcasts/apps/BUNDLE) with GET/DELETE /_sim/broadcasts, GET /_sim/channels and PUT/DELETE \
            /_sim/apps/BUNDLE taking the same bodies as /_sim/tokens/HEX. Transport faults: GET/DELETE /_sim/faults; \
            PUT/DELETE /_sim/faults/tokens/HEX with {"fault":"reset_stream","error_code":"REFUSED_STREAM"}, \
            {"fault":"close_before_answer"} or {"fault":"close_after_headers"} (and "times"); /_sim/faults/streams \
            with {"every":50,"fault":...}; /_sim/faults/goaway with {"after_streams":100,"connections":1}; \
            /_sim/faults/tls with {"connections":3} or {"for_ms":2000}. Latency and stream limit at run time: \
            GET /_sim/settings (with each connection's streams), PUT /_sim/settings with {"latency_ms":50} \
            and/or {"max_streams":10} (open connections get a SETTINGS frame).
            """)

    @Option(help: "Address to listen on.") var host = "127.0.0.1"
    @Option(help: "Port to listen on.") var port = 2197
    @Flag(help: "Serve HTTP/2 over TLS with a self-signed certificate for --host, made at start.") var tls = false
    @Option(help: "With --tls: write the certificate (PEM) here, for clients to trust; default a temporary file.")
    var tlsCertificateOut: String?
    @Option(help: "PEM certificate: serve HTTP/2 over TLS with it (with --tls-key).") var tlsCertificate: String?
    @Option(help: "PEM private key of the certificate.") var tlsKey: String?
    @Option(
        name: .customLong("provider-key"),
        help: "KEY_ID:TEAM_ID:PATH, a key APNs should accept: PATH is its .p8 or public key PEM (repeat for more).")
    var providerKeys: [String] = []
    @Option(help: "Broadcast channels one bundle id may have before creating another fails, as APNs's 10,000.")
    var channelLimit = 10_000
    @Option(
        help:
            "Answer every request this many milliseconds after it arrived, as a network round trip to APNs takes; other streams are not held up."
    )
    var latencyMs = 0
    @Option(help: "SETTINGS_MAX_CONCURRENT_STREAMS to advertise: streams a client may have open on one connection (APNs: 500 to 1,000).")
    var maxStreams = 500
    @Option(
        help:
            "Accepted pushes kept for GET /_sim/pushes, the newest; older ones are dropped (counted in GET /_sim/settings), about 1.5 KB each."
    )
    var retainPushes = 1_000_000

    func run() async throws {
        var keys: [String: SimulatorConfiguration.ProviderKey] = [:]
        for entry in providerKeys {
            let parts = entry.split(separator: ":", maxSplits: 2).map(String.init)
            guard parts.count == 3 else { throw ValidationError("--provider-key takes KEY_ID:TEAM_ID:PATH, got '\(entry)'") }
            let pem = try String(contentsOfFile: parts[2], encoding: .utf8)
            keys[parts[0]] = .init(teamID: parts[1], publicKey: try P256PublicKey(publicOrPrivatePEM: pem))
        }
        let logger = Logger(label: "livegate.apns-sim")
        let (tls, temporaryCertificate) = try makeTLS(logger: logger)
        // A temporary certificate is of no use once its key is gone with this process.
        defer { if let temporaryCertificate { try? FileManager.default.removeItem(atPath: temporaryCertificate) } }
        let simulator = APNsSimulator(
            configuration: SimulatorConfiguration(
                host: host, port: port, tls: tls, providerKeys: keys, maximumConcurrentStreams: maxStreams,
                maximumChannelsPerApp: channelLimit, latency: .milliseconds(latencyMs), retainedPushes: retainPushes),
            logger: logger)
        let group = ServiceGroup(
            configuration: .init(
                services: [SimulatorService(simulator: simulator, logger: logger)],
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }

    /// The TLS identity to serve with, if any, and the temporary certificate file made for it.
    private func makeTLS(logger: Logger) throws -> (SimulatorTLS?, temporaryFile: String?) {
        guard tls else {
            guard let tlsCertificate, let tlsKey else { return (nil, nil) }
            return (.files(certificateFile: tlsCertificate, privateKeyFile: tlsKey), nil)
        }
        // Written before the port opens, so a script that waits for the port finds the file.
        let identity = try SelfSignedCertificate(host: host)
        let path =
            tlsCertificateOut
            ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("livegate-apns-sim-\(UUID().uuidString.prefix(8).lowercased()).pem").path
        try Data(identity.certificatePEM.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        logger.info(
            "self-signed certificate written; clients trust it with LIVEGATE_APNS_CA_FILE",
            metadata: ["path": "\(path)", "names": "\(identity.subjectAlternativeNames.joined(separator: ","))"])
        return (.pem(certificate: identity.certificatePEM, privateKey: identity.privateKeyPEM), tlsCertificateOut == nil ? path : nil)
    }

    func validate() throws {
        if channelLimit < 0 { throw ValidationError("--channel-limit cannot be negative") }
        if !(0...600_000).contains(latencyMs) { throw ValidationError("--latency-ms takes 0 to 600000") }
        if !(0...100_000_000).contains(retainPushes) { throw ValidationError("--retain-pushes takes 0 to 100000000") }
        if maxStreams < 1 || maxStreams > Int(Int32.max) { throw ValidationError("--max-streams takes 1 to \(Int32.max)") }
        if tls, tlsCertificate != nil || tlsKey != nil {
            throw ValidationError("--tls makes its own certificate: give either --tls or --tls-certificate with --tls-key, not both")
        }
        if tlsCertificateOut != nil, !tls {
            throw ValidationError("--tls-certificate-out writes the certificate --tls makes: add --tls")
        }
        if (tlsCertificate == nil) != (tlsKey == nil) {
            throw ValidationError("--tls-certificate and --tls-key go together")
        }
    }
}

/// Runs the simulator as a service, so signals stop it cleanly.
struct SimulatorService: Service {
    let simulator: APNsSimulator
    let logger: Logger

    func run() async throws {
        let port = try await simulator.start()
        let host = simulator.configuration.host
        logger.info(
            "APNs simulator listening",
            metadata: [
                "url": "\(simulator.configuration.tls == nil ? "http" : "https")://\(host.contains(":") ? "[\(host)]" : host):\(port)",
                "keys": "\(simulator.configuration.providerKeys.keys.sorted().joined(separator: ","))",
            ])
        try? await gracefulShutdown()
        await simulator.stop()
    }
}
