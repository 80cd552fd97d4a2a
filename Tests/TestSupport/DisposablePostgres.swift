import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import Logging
import PostgresClient

/// A PostgreSQL cluster of a test's own, started and stopped with the same shell functions the
/// scripts use, for tests that stop or restart the server (which the shared test server must not).
package struct DisposablePostgres: Sendable {
    package let dataDirectory: String
    package let port: Int

    package var connectionString: String { "host=127.0.0.1 port=\(port) user=postgres dbname=postgres" }

    package static func start() async throws -> DisposablePostgres {
        let directory = "/tmp/livegate-disposable-pg-\(UUID().uuidString.prefix(8))"
        let cluster = DisposablePostgres(dataDirectory: directory, port: LiveGateBinary.freePort())
        try await cluster.start()
        return cluster
    }

    package func start() async throws {
        try await shell("pg_start '\(dataDirectory)' \(port) fsync=off")
    }

    package func stop() async throws {
        try await shell("pg_stop '\(dataDirectory)'")
    }

    /// The cluster's `postgres` database, migrated, as a `TestDatabase` (its pool closed, the database
    /// kept, when `body` ends): for tests that stop the server under a gateway.
    package func withDatabase<Result: Sendable>(_ body: (TestDatabase) async throws -> Result) async throws -> Result {
        try await TestDatabase.migrated(
            name: "postgres",
            configuration: .init(
                connectionString: connectionString, maximumConnections: 4, connectTimeoutSeconds: 2,
                callTimeout: TestPostgres.callTimeout),
            body)
    }

    /// Stops the server and deletes its files.
    package func remove() async {
        _ = try? await shell("pg_stop '\(dataDirectory)'; rm -rf '\(dataDirectory)'")
    }

    private func shell(_ command: String) async throws {
        let output = try await Subprocess.bash("source scripts/lib/postgres.sh && \(command)")
        guard output.status == 0 else {
            throw Subprocess.Failure(description: "\(command) failed: \(output.stderr)")
        }
    }
}
