import APNsSimulator
import Foundation
import Hummingbird
import HummingbirdTesting
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import Logging
import PostgresClient
import Testing
import TestSupport

/// `Gateway.build`, the one composition root: what `livegate serve` runs, from settings read in one place.
@Suite("The gateway as livegate serve puts it together", .requiresPostgres)
struct GatewayTests {
    @Test func theBuiltGatewayAcceptsAndDeliversAnUpdate() async throws {
        try await SimulatorFixture.with { fixture in
            try await TestDatabase.with { database in
                let tenant = try await database.makeTenant(
                    bundleID: APNsSimulatorTests.bundleID, endpoint: fixture.endpoint, credentials: fixture.credentials)
                let device = token(numbered: 7)
                try await database.insertActivityTokens([device], app: tenant.app, activityID: "order-7")
                let settings = try GatewaySettings(
                    SettingsReader([
                        "DATABASE_URL": database.connectionString, "LIVEGATE_APNS_CA_FILE": fixture.certificate.certificateFile,
                        "LIVEGATE_DELIVERY_POLL_MILLISECONDS": "50", "LIVEGATE_METRICS": "off",
                    ]), port: 0)
                // Its own pool: the gateway closes it when it shuts down.
                let pool = PostgresConnectionPool(configuration: settings.database, logger: .init(label: "test.pool"))
                let gateway = Gateway.build(settings: settings, pool: pool, metricsRegistry: nil, logger: .quiet)
                try await gateway.test(.live) { client in
                    let response = try await client.execute(
                        uri: "/messages/live_activity/update", method: .post, headers: .bearer(tenant.secret).merging(.json),
                        body: ByteBuffer(
                            string: #"{"app_id":"\#(tenant.app.identifier)","activity_id":"order-7","content_state":{"eta":"12:40"}}"#))
                    #expect(response.status == .created)
                    // Delivered by the engine the gateway runs beside its HTTP server.
                    let deadline = ContinuousClock.now + .seconds(20)
                    while fixture.simulator.received.isEmpty, ContinuousClock.now < deadline {
                        try await Task.sleep(for: .milliseconds(20))
                    }
                    let pushes = fixture.simulator.received
                    #expect(pushes.map(\.deviceToken) == [device])
                    #expect(pushes.allSatisfy { String(decoding: $0.payload, as: UTF8.self).contains("12:40") })
                }
            }
        }
    }

    /// Each setting is read once and reaches every part that uses it.
    @Test func aSettingReadOnceReachesEveryPartThatUsesIt() throws {
        let settings = try GatewaySettings(
            SettingsReader([
                "DATABASE_URL": "postgres://localhost/x", "LIVEGATE_SUPERSESSION": "off", "LIVEGATE_LOOKUP_CACHE_SECONDS": "9",
                "LIVEGATE_CHANNEL_RETENTION_SECONDS": "120", "LIVEGATE_APNS_CONNECTIONS": "3", "LIVEGATE_APNS_MAX_STREAMS": "50",
            ]))
        #expect(settings.delivery.supersedes == false)
        #expect(settings.dispatchCommit.supersedes == false)
        #expect(settings.http.lookupCacheTimeToLive == .seconds(9))
        #expect(settings.delivery.appCacheTimeToLive == .seconds(9))
        #expect(settings.http.channelRetention == .seconds(120))
        #expect(settings.delivery.channelRetention == .seconds(120))
        // Derived from the APNs connections and their streams: twice what they carry; a page at least 1,000.
        #expect(settings.delivery.maximumPushesInFlight == 300)
        #expect(settings.delivery.pageSize == 1000)
        // Batches are a quarter of what the streams carry, not of the in-flight limit.
        #expect(settings.delivery.pushesPerBatch == 37)
        #expect(settings.http.port == 8080)
    }

    @Test func aSettingThatCannotBeUsedIsRefusedByName() throws {
        #expect(throws: SettingsError("LIVEGATE_DELIVERY_LEASE_SECONDS must be a whole number from 2 to 3600")) {
            try GatewaySettings(SettingsReader(["DATABASE_URL": "postgres://localhost/x", "LIVEGATE_DELIVERY_LEASE_SECONDS": "1"]))
        }
        #expect(throws: SettingsError("LIVEGATE_DELIVERY must be on or off")) {
            try GatewaySettings(SettingsReader(["DATABASE_URL": "postgres://localhost/x", "LIVEGATE_DELIVERY": "maybe"]))
        }
        #expect(throws: SettingsError("DATABASE_URL is not set: give a libpq connection string or a postgres:// URI")) {
            try GatewaySettings(SettingsReader([:]))
        }
    }
}
