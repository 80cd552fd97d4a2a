import ArgumentParser

struct LiveGateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "livegate",
        abstract: "A Braze-compatible gateway for iOS Live Activities.",
        discussion: "The database comes from DATABASE_URL (a libpq connection string or postgres:// URI); apns-sim needs none.",
        subcommands: [
            MigrateCommand.self, ServeCommand.self, WorkspaceCommand.self, AppCommand.self, KeyCommand.self,
            TypeCommand.self, APNsSimulatorCommand.self, ProviderTokenCommand.self,
        ]
    )
}
