import ArgumentParser
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore

struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate", abstract: "Apply the schema migrations the database has not seen.")

    func run() async throws {
        let applied = try await withDatabase { pool, logger in try await Migrator(pool: pool, logger: logger).migrate() }
        print(applied.isEmpty ? "schema is up to date" : "applied migrations: \(applied.map(String.init).joined(separator: ", "))")
    }
}
