import ArgumentParser
import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore

extension AppCommand {
    struct SDKAuth: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sdk-auth",
            abstract: "Turn SDK authentication on or off for an app, and give it the public keys its JWTs are checked with.",
            discussion: """
                Enforced, a /push_token_tag call that names an external_id needs 'Authorization: Bearer <JWT>': \
                signed by your server (ES256 with an EC P-256 key, or RS256 with an RSA key), sub = the external_id, \
                exp required. --public-key takes a SubjectPublicKeyInfo PEM ('-----BEGIN PUBLIC KEY-----'); give \
                it twice during a key rotation. Keys given replace the app's keys; without --public-key they are \
                kept. --off stops enforcing and keeps the keys. Running gateways apply a change within \
                LIVEGATE_LOOKUP_CACHE_SECONDS.
                """)

        @Argument(help: "The app identifier (app_id).") var appId: String
        @Option(name: .customLong("public-key"), help: "A public key PEM file (at most two).") var publicKeys: [String] = []
        @Flag(help: "Require a valid JWT on SDK calls that name an external_id.") var enforce = false
        @Flag(help: "Stop requiring it (the keys stay).") var off = false

        func validate() throws {
            guard enforce != off else { throw ValidationError("give exactly one of --enforce and --off") }
            guard publicKeys.count <= SDKAuthentication.maximumKeys else {
                throw ValidationError("give at most \(SDKAuthentication.maximumKeys) --public-key files: the current key and the next")
            }
        }

        func run() async throws {
            let keys = try publicKeys.map(Self.readKey)
            if Set(keys.map(\.fingerprint)).count < keys.count { throw CLIError("the same public key was given twice") }
            let app = try await withDatabase { pool, _ in
                try await PostgresTenancyRepository(pool: pool).setSDKAuthentication(
                    appIdentifier: appId, keys: keys.isEmpty ? nil : keys, enforced: enforce)
            }
            guard let app else { throw CLIError("no app has app_id '\(appId)'") }
            let settings = app.sdkAuthentication
            let state =
                settings.enforced
                ? "enforces SDK authentication: SDK calls that name an external_id need a JWT"
                : "does not enforce SDK authentication"
            let keyLines = settings.keys.map { "  \($0.algorithm.rawValue) key, \(Self.describe($0)), SHA-256 \($0.fingerprint)" }
            printResult(
                ["App '\(app.name)' \(state); \(settings.keys.count) public key(s):"] + keyLines, value: app.identifier)
        }

        static func readKey(_ path: String) throws -> SDKAuthPublicKey {
            let text: String
            do {
                text = try String(contentsOfFile: path, encoding: .utf8)
            } catch {
                throw CLIError("cannot read --public-key \(path)")
            }
            do {
                return try SDKAuthPublicKey(pem: text)
            } catch {
                throw CLIError("--public-key \(path): \(error.message)")
            }
        }

        static func describe(_ key: SDKAuthPublicKey) -> String {
            switch key.algorithm {
            case .es256: "EC P-256"
            case .rs256: "RSA \(key.bits) bits"
            }
        }
    }
}
