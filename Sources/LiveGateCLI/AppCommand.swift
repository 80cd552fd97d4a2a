import APNsClient
import APNsCore
import ArgumentParser
import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore

struct AppCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app", abstract: "Manage apps.",
        subcommands: [Create.self, SetChannelsEndpoint.self, SDKAuth.self, SetPriorityBudget.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register an iOS app; prints its app identifier (the app_id of API calls) on the last line.",
            discussion: """
                --team-id, --key-id and --key-file come together. Without them the app is created without \
                push credentials, and its pushes are logged as "No push credential" instead of being sent.
                """)

        @Option(help: "The workspace id.") var workspace: UUIDArgument
        @Option(help: "A name for people.") var name: String
        @Option(help: "The app's bundle identifier, e.g. com.example.Scores.") var bundleId: String
        @Option(help: "Apple Developer team id (the JWT's iss).") var teamId: String?
        @Option(help: "The APNs signing key's id (the JWT's kid).") var keyId: String?
        @Option(help: "Path to the .p8 signing key (PKCS#8 PEM, P-256).") var keyFile: String?
        @Option(help: "production, sandbox, or a URL (http://host:port: HTTP/2 without TLS).")
        var apnsEndpoint: String
        @Option(help: "Manage broadcast channels at this URL instead of the endpoint's own (Apple's management host, or the custom URL).")
        var apnsChannelsEndpoint: String?
        @Option(help: "Use this app identifier instead of a new random one (e.g. the one Braze gave the app).")
        var appId: String?

        func validate() throws {
            guard APNsEndpoint(rawValue: apnsEndpoint) != nil else {
                throw ValidationError("--apns-endpoint must be production, sandbox, or an http:// or https:// URL")
            }
            if let apnsChannelsEndpoint { try ChannelsEndpointArgument.check(apnsChannelsEndpoint) }
            let given = [teamId, keyId, keyFile].filter { $0 != nil }.count
            guard given == 0 || given == 3 else {
                throw ValidationError("--team-id, --key-id and --key-file go together: give all three or none")
            }
        }

        func run() async throws {
            var credentials: APNsCredentials?
            if let teamId, let keyId, let keyFile {
                let pem = try readKeyFile(keyFile)
                guard pem.contains("-----BEGIN PRIVATE KEY-----") else {
                    throw CLIError("--key-file is not a PKCS#8 PEM private key (an APNs .p8 file)")
                }
                credentials = APNsCredentials(teamID: teamId, keyID: keyId, privateKeyPEM: pem)
            }
            let app = try await withDatabase { pool, _ in
                try await PostgresTenancyRepository(pool: pool).createApp(
                    workspaceID: workspace.value, name: name, identifier: appId, bundleID: bundleId,
                    endpoint: APNsEndpoint(rawValue: apnsEndpoint)!, channelsEndpointURL: apnsChannelsEndpoint,
                    credentials: credentials)
            }
            let credentialNote = app.credentials == nil ? "without push credentials" : "with key \(app.credentials!.keyID)"
            printResult(
                ["Created app '\(app.name)' (\(app.bundleID)) sending to \(app.endpoint), \(credentialNote)."],
                value: app.identifier)
        }
    }

    struct SetChannelsEndpoint: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set-channels-endpoint",
            abstract: "Change where an app's broadcast channels are managed; 'default' for its endpoint's own host.")

        @Argument(help: "The app identifier (app_id).") var appId: String
        @Argument(help: "An http:// or https:// URL, or 'default'.") var url: String

        func validate() throws {
            if url != "default" { try ChannelsEndpointArgument.check(url) }
        }

        func run() async throws {
            let app = try await withDatabase { pool, _ in
                try await PostgresTenancyRepository(pool: pool).setChannelsEndpoint(
                    appIdentifier: appId, url: url == "default" ? nil : url)
            }
            guard let app else { throw CLIError("no app has app_id '\(appId)'") }
            printResult(
                ["App '\(app.name)' manages its broadcast channels at \(app.channelsEndpoint.managementBaseURL)."],
                value: app.identifier)
        }
    }
}

enum ChannelsEndpointArgument {
    static let invalid = "the channels endpoint must be an http:// or https:// URL with a host and no path"

    /// Throws unless `url` is one an endpoint can be managed at (`APNsEndpoint.managed(at:)`).
    static func check(_ url: String) throws {
        guard APNsEndpoint.sandbox.managed(at: url) != nil else { throw ValidationError(invalid) }
    }
}
