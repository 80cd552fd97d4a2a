import APNsSimulator
import ArgumentParser
import Foundation
import LiveGate
import Logging
import ServiceLifecycle

struct APNsSimulatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apns-sim",
        abstract: "Serve an APNs look-alike for development and tests, until SIGINT or SIGTERM.",
        discussion: """
            Checks pushes as APNs does (path, topic, push type, priority, payload, and the provider token's \
            ES256 signature against the keys given) and answers with APNs's statuses and reasons. Without \
            --tls-certificate it serves HTTP/2 without TLS (point an app at http://HOST:PORT).
            """)

    @Option(help: "Address to listen on.") var host = "127.0.0.1"
    @Option(help: "Port to listen on.") var port = 2197
    @Option(help: "PEM certificate: serve HTTP/2 over TLS (with --tls-key).") var tlsCertificate: String?
    @Option(help: "PEM private key of the certificate.") var tlsKey: String?
    @Option(
        name: .customLong("provider-key"),
        help: "KEY_ID:TEAM_ID:PATH, a key APNs should accept: PATH is its .p8 or public key PEM (repeat for more).")
    var providerKeys: [String] = []

    func run() async throws {
        var keys: [String: SimulatorConfiguration.ProviderKey] = [:]
        for entry in providerKeys {
            let parts = entry.split(separator: ":", maxSplits: 2).map(String.init)
            guard parts.count == 3 else { throw ValidationError("--provider-key takes KEY_ID:TEAM_ID:PATH, got '\(entry)'") }
            let pem = try String(contentsOfFile: parts[2], encoding: .utf8)
            keys[parts[0]] = .init(teamID: parts[1], publicKey: try P256PublicKey(publicOrPrivatePEM: pem))
        }
        var tls: (certificateFile: String, privateKeyFile: String)?
        switch (tlsCertificate, tlsKey) {
        case (let certificate?, let key?): tls = (certificate, key)
        case (nil, nil): tls = nil
        default: throw ValidationError("--tls-certificate and --tls-key go together")
        }
        let logger = Logger(label: "livegate.apns-sim")
        let simulator = APNsSimulator(
            configuration: SimulatorConfiguration(host: host, port: port, tls: tls, providerKeys: keys), logger: logger)
        let group = ServiceGroup(
            configuration: .init(
                services: [SimulatorService(simulator: simulator, logger: logger)],
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }
}

/// Runs the simulator as a service, so signals stop it cleanly.
struct SimulatorService: Service {
    let simulator: APNsSimulator
    let logger: Logger

    func run() async throws {
        let port = try await simulator.start()
        logger.info(
            "APNs simulator listening",
            metadata: ["port": "\(port)", "tls": "\(simulator.configuration.tls != nil)",
                       "keys": "\(simulator.configuration.providerKeys.keys.sorted().joined(separator: ","))"])
        try? await gracefulShutdown()
        await simulator.stop()
    }
}
