import APNsCore
import ArgumentParser
import Foundation
import LiveGateDomain
import LiveGateStore

/// `livegate type put|list|delete`: an app's ActivityAttributes types, as `/live_activity/types` keeps
/// them, for operators without an API key at hand.
struct TypeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "type",
        abstract: "Register, list and remove an app's ActivityAttributes types (what its content_state must decode as).",
        subcommands: [Put.self, List.self, Delete.self])

    struct Put: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register or replace a type from its JSON schemas.",
            discussion: """
                --content-state (and --attributes) name files holding the schema (docs/nothing-shows.md), \
                which LiveGateKit derives from the app's own types. In enforce mode updates and starts the \
                app could not decode are refused with a 400; in warn mode they are accepted and logged. \
                Running gateways apply a change within LIVEGATE_LOOKUP_CACHE_SECONDS.
                """)

        @Argument(help: "The app identifier (app_id).") var appId: String
        @Argument(help: "The ActivityAttributes type's name.") var attributesType: String
        @Option(help: "A file with the ContentState's schema.") var contentState: String
        @Option(help: "A file with the attributes' schema.") var attributes: String?
        @Option(help: "enforce (refuse what would not decode) or warn (accept and log it).") var mode = "enforce"

        func validate() throws {
            guard PayloadCheckMode.all.contains(PayloadCheckMode(rawValue: mode)) else {
                throw ValidationError("--mode must be enforce or warn")
            }
            guard (1...256).contains(attributesType.count) else { throw ValidationError("the type's name must be 1 to 256 characters") }
        }

        func run() async throws {
            let contentStateSchema = try Self.schema(file: contentState, at: "content_state")
            let attributesSchema = try attributes.map { try Self.schema(file: $0, at: "attributes") }
            let created = try await withDatabase { pool, _ in
                guard let app = try await PostgresTenancyRepository(pool: pool).app(identifier: appId) else {
                    throw CLIError("no app has app_id '\(appId)'")
                }
                return try await PostgresActivityTypeStore(pool: pool).put(
                    ActivityType(
                        appID: app.id, name: attributesType, contentState: contentStateSchema, attributes: attributesSchema,
                        mode: PayloadCheckMode(rawValue: mode), updatedAt: Date()))
            }
            printResult(["Type \(attributesType) \(created ? "registered" : "replaced") in \(mode) mode."], value: attributesType)
        }

        static func schema(file: String, at path: String) throws -> PayloadSchema {
            let text: String
            do {
                text = try String(contentsOfFile: file, encoding: .utf8)
            } catch {
                throw CLIError("cannot read --\(path.replacingOccurrences(of: "_", with: "-")) \(file)")
            }
            do {
                return try PayloadSchema(parsing: try JSONValue.parse(text), at: path)
            } catch let error as PayloadSchemaError {
                throw CLIError("\(file): \(error.description)")
            } catch {
                throw CLIError("\(file) is not JSON: \(error)")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List an app's types and their modes.")

        @Argument(help: "The app identifier (app_id).") var appId: String

        func run() async throws {
            let types = try await withDatabase { pool, _ in
                guard let app = try await PostgresTenancyRepository(pool: pool).app(identifier: appId) else {
                    throw CLIError("no app has app_id '\(appId)'")
                }
                return try await PostgresActivityTypeStore(pool: pool).types(appID: app.id)
            }
            for type in types { print("\(type.name)\t\(type.mode)\t\(type.updatedAt.iso8601)") }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a type: its activities' payloads are no longer checked.")

        @Argument(help: "The app identifier (app_id).") var appId: String
        @Argument(help: "The ActivityAttributes type's name.") var attributesType: String

        func run() async throws {
            let deleted = try await withDatabase { pool, _ in
                guard let app = try await PostgresTenancyRepository(pool: pool).app(identifier: appId) else {
                    throw CLIError("no app has app_id '\(appId)'")
                }
                return try await PostgresActivityTypeStore(pool: pool).delete(name: attributesType, appID: app.id)
            }
            guard deleted else { throw CLIError("app '\(appId)' has no type '\(attributesType)'") }
            printResult(["Type \(attributesType) removed."], value: attributesType)
        }
    }
}
