import APNsClient
import APNsCore
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import TestSupport

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
