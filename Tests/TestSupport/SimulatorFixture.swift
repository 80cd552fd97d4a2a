import APNsClient
import APNsCore
import APNsSimulator
import Foundation
import Logging

/// An APNs simulator over TLS that accepts one provider key, with what a sender needs to trust it and
/// sign for it; torn down (simulator stopped, key files removed) when `with` returns or throws.
package struct SimulatorFixture: Sendable {
    package static let keyID = "KEY1234567"
    package static let teamID = "TEAM123456"
    /// The bundle id the simulator's apps push to.
    package static let bundleID = "com.example.apple-samplecode.Emoji-Rangers"

    package let simulator: APNsSimulator
    package let port: Int
    package let keys: TestKeyPair
    package let certificate: TestKeyPair.Certificate

    package var endpoint: APNsEndpoint { APNsEndpoint(rawValue: "https://127.0.0.1:\(port)")! }
    package var credentials: APNsCredentials {
        APNsCredentials(teamID: Self.teamID, keyID: Self.keyID, privateKeyPEM: keys.privatePEM)
    }

    package static func with<Result>(
        clock: @escaping @Sendable () -> Date = { Date() }, channelLimit: Int = 10_000,
        streamResetLimit: (count: Int, window: Duration)? = nil, _ body: (SimulatorFixture) async throws -> Result
    ) async throws -> Result {
        let keys = try await TestKeyPair.make()
        let certificate = try await TestKeyPair.Certificate.make()
        defer {
            keys.remove()
            certificate.remove()
        }
        var configuration = SimulatorConfiguration(
            tls: .files(certificateFile: certificate.certificateFile, privateKeyFile: certificate.keyFile),
            providerKeys: [keyID: .init(teamID: teamID, publicKey: try P256PublicKey(pem: keys.publicPEM))],
            maximumChannelsPerApp: channelLimit)
        if let streamResetLimit { configuration.streamResetLimit = streamResetLimit }
        let simulator = APNsSimulator(configuration: configuration, clock: clock, logger: .quiet)
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
