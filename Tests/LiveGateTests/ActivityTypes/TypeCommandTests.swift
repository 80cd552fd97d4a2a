import Foundation
import LiveGateDomain
import LiveGateStore
import TestSupport
import Testing

/// `livegate type put|list|delete`: what `/live_activity/types` keeps, for operators.
@Suite("livegate type", .requiresPostgres)
struct TypeCommandTests {
    @Test func aTypeIsPutListedAndDeletedAndABadSchemaIsRefusedNamingWhere() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            let url = database.connectionString
            let app = tenant.app.identifier
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livegate-type-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let schema = folder.appendingPathComponent("state.json")
            try DeliveryTracking.contentStateSchema.write(to: schema, atomically: true, encoding: .utf8)
            let bad = folder.appendingPathComponent("bad.json")
            try #"{"type":"object","properties":{"eta":{"type":"string","format":"apple-date"}}}"#.write(
                to: bad, atomically: true, encoding: .utf8)

            let put = try await LiveGateBinary.run(
                ["type", "put", app, "DeliveryTracking", "--content-state", schema.path, "--mode", "warn"], databaseURL: url)
            #expect(put.status == 0, "\(put.stderr)")
            #expect(put.lastLine == "DeliveryTracking")
            let stored = try await PostgresActivityTypeStore(pool: database.pool).types(appID: tenant.app.id)
            #expect(stored.map(\.name) == ["DeliveryTracking"])
            #expect(stored.first?.mode == .warn)

            let list = try await LiveGateBinary.run(["type", "list", app], databaseURL: url)
            #expect(list.status == 0, "\(list.stderr)")
            #expect(list.stdout.hasPrefix("DeliveryTracking\twarn\t"))

            let refused = try await LiveGateBinary.run(
                ["type", "put", app, "Broken", "--content-state", bad.path], databaseURL: url)
            #expect(refused.status != 0)
            #expect(refused.stderr.contains("content_state.properties.eta.format"), "\(refused.stderr)")

            let deleted = try await LiveGateBinary.run(["type", "delete", app, "DeliveryTracking"], databaseURL: url)
            #expect(deleted.status == 0, "\(deleted.stderr)")
            #expect(try await database.count("SELECT count(*) FROM activity_types") == 0)
            let again = try await LiveGateBinary.run(["type", "delete", app, "DeliveryTracking"], databaseURL: url)
            #expect(again.status != 0)
            #expect(again.stderr.contains("has no type 'DeliveryTracking'"), "\(again.stderr)")
        }
    }
}
