import APNsSimulator
import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import PostgresClient
import TestSupport
import Testing

/// The engine keeps apps for `DeliverySettings.appCacheTimeToLive`, which `livegate serve` sets from
/// `LIVEGATE_LOOKUP_CACHE_SECONDS`: a changed app is used once that has passed, and not before.
@Suite("Delivery: apps are cached for the lookup cache's time", .heavy, .requiresPostgres)
struct DeliveryAppCacheTests {
    static func settings(appCacheTimeToLive: Duration) -> DeliverySettings {
        var settings = DeliveryHarness.testSettings
        settings.appCacheTimeToLive = appCacheTimeToLive
        return settings
    }

    /// Sends one update to one device, so the engine has loaded the app; then takes the app's signing
    /// key away in the database, as an operator replacing a credential would for a moment.
    static func deliverOnceThenRemoveTheKey(_ harness: DeliveryHarness) async throws {
        try await harness.register(token(0x7a), device: "phone-a")
        try await harness.update(#""content_state":{"n":1}"#)
        #expect(try await harness.engine.deliverDue() == 1)
        #expect(harness.simulator.received.map(\.deviceToken) == [token(0x7a)])
        try await harness.database.pool.query(
            "UPDATE apps SET apns_team_id = NULL, apns_key_id = NULL, apns_private_key = NULL WHERE id = $1",
            [harness.tenant.app.id])
    }

    @Test func withNoCacheTheNextDispatchSeesTheChangedApp() async throws {
        try await DeliveryHarness.with(settings: Self.settings(appCacheTimeToLive: .zero)) { harness in
            try await Self.deliverOnceThenRemoveTheKey(harness)
            let id = try await harness.update(#""content_state":{"n":2}"#)
            #expect(try await harness.engine.deliverDue() == 1)
            #expect(harness.simulator.received.count == 1, "the second update is not sent")
            #expect(try await harness.dispatch(id).require("status", as: String.self) == "failed")
            let log = try await harness.log()
            #expect(log.count == 1)
            #expect(try log.first?.require("type", as: String.self) == ActivityLogType.noPushCredential.rawValue)
        }
    }

    @Test func withinTheTimeToLiveTheEngineUsesTheAppItLoaded() async throws {
        try await DeliveryHarness.with(settings: Self.settings(appCacheTimeToLive: .seconds(3600))) { harness in
            try await Self.deliverOnceThenRemoveTheKey(harness)
            let id = try await harness.update(#""content_state":{"n":2}"#)
            #expect(try await harness.engine.deliverDue() == 1)
            #expect(harness.simulator.received.map(\.deviceToken) == [token(0x7a), token(0x7a)])
            #expect(try await harness.dispatch(id).require("status", as: String.self) == "done")
            #expect(try await harness.log().isEmpty)
        }
    }
}
