import Foundation
import Hummingbird
import HummingbirdTesting
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import PostgresClient
import TestSupport
import Testing

@Suite("GET /healthz follows the database", .requiresPostgres)
struct HealthTests {
    @Test func okWhenTheDatabaseAnswers() async throws {
        try await TestDatabase.with { database in
            try await TestGateway.app(database).test(.router) { client in
                let response = try await client.execute(uri: "/healthz", method: .get)
                #expect(response.status == .ok)
                #expect(response.text == #"{"database":"ok","status":"ok"}"# || response.text == #"{"status":"ok","database":"ok"}"#)
            }
        }
    }

    @Test func unavailableWhenTheDatabaseDoesNot() async throws {
        let pool = PostgresConnectionPool(
            configuration: .init(connectionString: "host=127.0.0.1 port=1 user=nobody dbname=none", connectTimeoutSeconds: 1))
        let app = buildApplication(configuration: .init(), dependencies: .postgres(pool: pool), logger: .quiet)
        try await app.test(.router) { client in
            let response = try await client.execute(uri: "/healthz", method: .get)
            #expect(response.status == .serviceUnavailable)
            #expect(response.headers[.retryAfter] == "2")
            #expect(response.text == #"{"errors":["PostgreSQL did not answer"],"message":"Database unavailable: retry after 2 seconds"}"#)
        }
        await pool.close()
    }

    @Test func followsTheDatabaseThroughARestart() async throws {
        let cluster = try await DisposablePostgres.start()
        let pool = PostgresConnectionPool(configuration: .init(connectionString: cluster.connectionString, connectTimeoutSeconds: 2))
        let app = buildApplication(configuration: .init(), dependencies: .postgres(pool: pool), logger: .quiet)
        do {
            try await app.test(.router) { client in
                #expect(try await client.execute(uri: "/healthz", method: .get).status == .ok)
                try await cluster.stop()
                #expect(try await client.execute(uri: "/healthz", method: .get).status == .serviceUnavailable)
                try await cluster.start()
                #expect(try await client.execute(uri: "/healthz", method: .get).status == .ok)
            }
        } catch {
            Issue.record(error)
        }
        await pool.close()
        await cluster.remove()
    }
}
