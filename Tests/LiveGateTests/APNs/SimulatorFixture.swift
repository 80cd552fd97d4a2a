import APNsClient
import APNsSimulator
import Foundation
import LiveGate
import TestSupport

/// An APNs simulator over TLS that accepts one provider key, with what a sender needs to trust it and
/// sign for it; torn down (simulator stopped, key files removed) when `with` returns or throws.
struct SimulatorFixture {
    static let keyID = "KEY1234567"
    static let teamID = "TEAM123456"

    let simulator: APNsSimulator
    let port: Int
    let keys: TestKeyPair
    let certificate: TestKeyPair.Certificate

    var endpoint: APNsEndpoint { APNsEndpoint(rawValue: "https://127.0.0.1:\(port)")! }
    var credentials: APNsCredentials {
        APNsCredentials(teamID: Self.teamID, keyID: Self.keyID, privateKeyPEM: keys.privatePEM)
    }

    static func with<Result>(
        clock: @escaping @Sendable () -> Date = { Date() }, channelLimit: Int = 10_000, _ body: (SimulatorFixture) async throws -> Result
    ) async throws -> Result {
        let keys = try await TestKeyPair.make()
        let certificate = try await TestKeyPair.Certificate.make()
        defer {
            keys.remove()
            certificate.remove()
        }
        let simulator = APNsSimulator(
            configuration: SimulatorConfiguration(
                tls: .files(certificateFile: certificate.certificateFile, privateKeyFile: certificate.keyFile),
                providerKeys: [keyID: .init(teamID: teamID, publicKey: try P256PublicKey(pem: keys.publicPEM))],
                maximumChannelsPerApp: channelLimit),
            clock: clock, logger: .quiet)
        let port = try await simulator.start()
        let fixture = SimulatorFixture(simulator: simulator, port: port, keys: keys, certificate: certificate)
        do {
            let result = try await body(fixture)
            await simulator.stop()
            return result
        } catch {
            await simulator.stop()
            throw error
        }
    }
}

extension TestDatabase {
    /// An app in a new workspace whose pushes go to a simulator over TLS on 127.0.0.1:`port`, signed
    /// with `keys` as the simulators of these tests know them (`SimulatorFixture.keyID` of `teamID`).
    func makeSimulatorApp(port: Int, keys: TestKeyPair) async throws -> App {
        try await makeApp(
            in: try await makeWorkspace(), bundleID: APNsSimulatorTests.bundleID,
            endpoint: APNsEndpoint(rawValue: "https://127.0.0.1:\(port)")!,
            credentials: APNsCredentials(teamID: SimulatorFixture.teamID, keyID: SimulatorFixture.keyID, privateKeyPEM: keys.privatePEM))
    }
}
