import ArgumentParser
import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import UUIDText

struct KeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key", abstract: "Manage REST API keys.", subcommands: [Create.self, List.self, Revoke.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a REST API key; prints the key on the last line. It is shown only once.")

        @Option(help: "The workspace id.") var workspace: UUIDArgument
        @Option(help: "A name for people.") var name: String
        @Option(help: "Comma-separated: \(APIKeyPermission.all.map(\.rawValue).joined(separator: ", ")); or all.")
        var permissions: String
        @Option(name: .customLong("allow-ip"), help: "An address or CIDR the key may be used from; repeat for more.")
        var allowedIPs: [String] = []

        func parsedPermissions() throws -> Set<APIKeyPermission> {
            let names = permissions.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard !names.isEmpty else { throw ValidationError("--permissions needs at least one permission") }
            if names == ["all"] { return Set(APIKeyPermission.all) }
            return Set(
                try names.map { name in
                    guard let permission = APIKeyPermission(rawValue: name) else {
                        throw ValidationError(
                            "unknown permission '\(name)'; known: \(APIKeyPermission.all.map(\.rawValue).joined(separator: ", "))")
                    }
                    return permission
                })
        }

        func parsedNetworks() throws -> [IPNetwork] {
            try allowedIPs.map { text in
                guard let network = IPNetwork(text) else { throw ValidationError("--allow-ip '\(text)' is not an IP address or CIDR") }
                return network
            }
        }

        func validate() throws {
            _ = try parsedPermissions()
            _ = try parsedNetworks()
        }

        func run() async throws {
            let secret = APIKeySecret.generate()
            let key = try await withDatabase { pool, _ in
                try await PostgresAPIKeyRepository(pool: pool).create(
                    workspaceID: workspace.value, name: name, secret: secret, permissions: try parsedPermissions(),
                    allowedNetworks: try parsedNetworks())
            }
            printResult(
                [
                    "Created API key '\(key.name)' (id \(key.id.lowercasedText)) with \(key.permissions.map(\.rawValue).sorted().joined(separator: ", ")).",
                    "Store it now: only its hash is kept, it cannot be shown again.",
                ],
                value: secret.value)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List a workspace's keys (never the keys themselves).")

        @Option(help: "The workspace id.") var workspace: UUIDArgument

        func run() async throws {
            let keys = try await withDatabase { pool, _ in
                try await PostgresAPIKeyRepository(pool: pool).list(workspaceID: workspace.value)
            }
            print(["ID", "NAME", "HINT", "PERMISSIONS", "ALLOWED IPS", "CREATED", "STATUS"].joined(separator: "\t"))
            for key in keys {
                print(
                    [
                        key.id.lowercasedText, key.name, key.hint + "…",
                        key.permissions.map(\.rawValue).sorted().joined(separator: ","),
                        key.allowedNetworks.isEmpty ? "any" : key.allowedNetworks.map(\.description).joined(separator: ","),
                        key.createdAt.iso8601,
                        key.revokedAt.map { "revoked \($0.iso8601)" } ?? "active",
                    ].joined(separator: "\t"))
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a key: it is refused from then on.")

        @Argument(help: "The key's id (from 'key list' or 'key create').") var keyID: UUIDArgument

        func run() async throws {
            let found = try await withDatabase { pool, _ in try await PostgresAPIKeyRepository(pool: pool).revoke(id: keyID.value) }
            guard found else { throw CLIError("no API key with id \(keyID.value.lowercasedText)") }
            print("Revoked API key \(keyID.value.lowercasedText).")
        }
    }
}
