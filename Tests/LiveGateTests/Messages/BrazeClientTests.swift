import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import TestSupport
import Testing

/// PyPI's braze-client, driven by `Tests/Braze/braze_client_test.py` against a gateway on a real
/// socket: it reads any non-empty `errors` as a failed call, so only what Braze reports as errors may
/// go there. `scripts/install-deps.sh test` installs it (and a tenacity that runs on Python 3.11).
@Suite("Braze's Python client reads LiveGate's answers as Braze's", .heavy, .requiresPostgres)
struct BrazeClientTests {
    static let script = Subprocess.repositoryRoot.appendingPathComponent("Tests/Braze/braze_client_test.py").path

    struct Expected: Encodable {
        let key: String
        let app_id: String
        let activity_id_with_device: String
        let users_without_token: [String]
    }

    @Test func updatesAreSuccessesAndStartsReportBrazesErrors() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant(permissions: [.liveActivityUpdate, .liveActivityStart, .usersTrack])
            try await database.registerToken(tenant, tag: "match-1", device: "iphone-1", token: "aabb")
            let expected = Expected(
                key: tenant.secret, app_id: tenant.app.identifier, activity_id_with_device: "match-1",
                users_without_token: ["fan-without-token-1", "fan-without-token-2"])
            let json = String(decoding: try JSONEncoder().encode(expected), as: UTF8.self)
            let output = try await LiveGatewayServer.with(database: database) { baseURL async throws -> Subprocess.Output in
                try await Subprocess.run("/usr/bin/env", ["python3", Self.script, baseURL, json])
            }
            #expect(
                output.status == 0,
                "braze_client_test.py exited \(output.status)\n--- stdout\n\(output.stdout)\n--- stderr\n\(output.stderr)")
            // Three updates and one start were committed, the 400 nothing; the user's attributes stored.
            #expect(try await database.count("SELECT count(*) FROM dispatches") == 4)
            #expect(try await database.count("SELECT count(*) FROM user_attributes") == 5)
        }
    }
}
