import ArgumentParser
import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import UUIDText

struct WorkspaceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "workspace", abstract: "Manage workspaces.", subcommands: [Create.self, SetRateLimit.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a workspace; prints its id on the last line.")

        @Option(help: "A name for people.") var name: String
        @Option(help: "Requests per clock hour shared by /messages/live_activity/start and /update.")
        var rateLimit: Int = Workspace.defaultRateLimitPerHour

        func validate() throws {
            guard rateLimit > 0 else { throw ValidationError("--rate-limit must be at least 1") }
        }

        func run() async throws {
            let workspace = try await withDatabase { pool, _ in
                try await PostgresTenancyRepository(pool: pool).createWorkspace(name: name, rateLimitPerHour: rateLimit)
            }
            printResult(
                ["Created workspace '\(workspace.name)' with a limit of \(workspace.rateLimitPerHour) requests per hour."],
                value: workspace.id.lowercasedText)
        }
    }

    struct SetRateLimit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set-rate-limit",
            abstract: "Change a workspace's hourly request limit: the message endpoints', or /users/track's.")

        @Argument(help: "The workspace id.") var workspaceID: UUIDArgument
        @Argument(help: "Requests per clock hour.") var limit: Int
        @Flag(help: "Set /users/track's own limit (default 3,600,000) rather than the message endpoints'.")
        var usersTrack = false

        func validate() throws {
            guard limit > 0 else { throw ValidationError("the limit must be at least 1") }
        }

        func run() async throws {
            let usersTrack = usersTrack
            let found = try await withDatabase { pool, _ in
                let repository = PostgresTenancyRepository(pool: pool)
                if usersTrack { return try await repository.setUsersTrackRateLimit(workspaceID: workspaceID.value, perHour: limit) }
                return try await repository.setRateLimit(workspaceID: workspaceID.value, rateLimitPerHour: limit)
            }
            guard found else { throw CLIError("no workspace with id \(workspaceID.value.lowercasedText)") }
            let endpoints = usersTrack ? "/users/track" : "the message endpoints"
            print("Workspace \(workspaceID.value.lowercasedText) now allows \(limit) requests per hour to \(endpoints).")
        }
    }
}

/// A UUID given on the command line, rejected with a clear message when malformed.
struct UUIDArgument: ExpressibleByArgument {
    let value: UUID

    init?(argument: String) {
        guard let value = UUID(uuidString: argument) else { return nil }
        self.value = value
    }
}

/// A failure to report to the person at the terminal: printed without a stack of type names.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
