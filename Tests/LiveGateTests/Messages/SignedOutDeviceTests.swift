import APNsCore
import Foundation
import HTTPTypes
import HummingbirdTesting
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import PostgresClient
import TestSupport
import Testing

/// Which registration a test makes: an update token under a tag, or a push-to-start token for a type.
enum RegisteredKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case updateToken, pushToStartToken

    var table: String { self == .updateToken ? "activity_tokens" : "push_to_start_tokens" }

    /// The body's fields that say what is registered, with `token`.
    func fields(token: String) -> String {
        switch self {
        case .updateToken: #""tag":"game-42","push_token":"\#(token)""#
        case .pushToStartToken: #""activity_attributes_type":"MatchAttributes","push_to_start_token":"\#(token)""#
        }
    }

    /// A `/push_token_tag` body for `device` with `user`, the body's user fields as JSON (`""` for none).
    func body(_ tenant: Tenant, device: String, user: String, token: String) -> String {
        let parts = [#""app_id":"\#(tenant.app.identifier)","device_id":"\#(device)""#, user, fields(token: token)]
        return "{" + parts.filter { !$0.isEmpty }.joined(separator: ",") + "}"
    }

    var testDescription: String { rawValue }
}

@Suite("POST /push_token_tag with external_id null: a device whose user signed out belongs to no user", .requiresPostgres)
struct SignedOutDeviceTests {
    static let pushToken = "a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1"

    /// Each of the table's rows for `device`: its user's external id (nil: no user), whether it has a
    /// user at all, and when it last changed.
    static func row(
        _ database: TestDatabase, _ kind: RegisteredKind, device: String = "iphone-1"
    ) async throws -> (
        externalID: String?, userID: Int64?, updatedAt: Date
    ) {
        let rows = try await database.pool.query(
            """
            SELECT u.external_id, t.user_id, t.updated_at
            FROM \(kind.table) t LEFT JOIN users u ON u.id = t.user_id WHERE t.device_id = $1
            """, [device])
        #expect(rows.count == 1)
        return (try rows[0].decode("external_id"), try rows[0].decode("user_id"), try rows[0].require("updated_at"))
    }

    /// Posts one registration of `kind` for `device` with `user` (the body's user fields, `""` for none).
    static func register(
        _ client: any TestClientProtocol, _ tenant: Tenant, _ kind: RegisteredKind, device: String = "iphone-1", user: String
    ) async throws {
        let response = try await client.post(
            "/push_token_tag", kind.body(tenant, device: device, user: user, token: Self.pushToken), key: nil)
        #expect(response.status == .created, "\(response.text)")
    }

    @Test(arguments: RegisteredKind.allCases)
    func nullDetachesTheUserAbsentKeepsItAndAStringMovesIt(kind: RegisteredKind) async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await TestGateway.app(database).test(.router) { client async throws in
                try await Self.register(client, tenant, kind, user: #""external_id":"u1""#)
                // Another device of the same user, untouched by what this device says.
                try await Self.register(client, tenant, kind, device: "ipad-2", user: #""external_id":"u1""#)
                try await Self.register(client, tenant, kind, user: "")
                #expect(try await Self.row(database, kind).externalID == "u1", "left out, external_id keeps the user")

                let before = try await Self.row(database, kind).updatedAt
                try await Self.register(client, tenant, kind, user: #""external_id":null"#)
                let detached = try await Self.row(database, kind)
                #expect(detached.userID == nil, "null: the row belongs to no user")
                #expect(detached.updatedAt > before, "the change went through the upsert's guard")
                #expect(try await Self.row(database, kind, device: "ipad-2").externalID == "u1")
                // The user is still there (its attributes, its other devices); only this device left it.
                #expect(try await database.count("SELECT count(*) FROM users WHERE external_id = 'u1'") == 1)

                // Again null, then left out: still no user.
                try await Self.register(client, tenant, kind, user: #""external_id":null"#)
                try await Self.register(client, tenant, kind, user: "")
                #expect(try await Self.row(database, kind).userID == nil)

                try await Self.register(client, tenant, kind, user: #""external_id":"u2""#)
                #expect(try await Self.row(database, kind).externalID == "u2", "a string moves it to that user")
            }
            #expect(try await database.count("SELECT count(*) FROM \(kind.table)") == 2)
        }
    }

    @Test func aFirstRegistrationWithNullHasNoUserAndMakesNone() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await TestGateway.app(database).test(.router) { client async throws in
                for kind in RegisteredKind.allCases {
                    try await Self.register(client, tenant, kind, user: #""external_id":null,"user_alias":null"#)
                    #expect(try await Self.row(database, kind).userID == nil)
                }
            }
            #expect(try await database.count("SELECT count(*) FROM users") == 0)
        }
    }

    @Test(arguments: RegisteredKind.allCases)
    func withAUserAliasTheAliasWinsOverNull(kind: RegisteredKind) async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await TestGateway.app(database).test(.router) { client async throws in
                try await Self.register(client, tenant, kind, user: #""external_id":"u1""#)
                try await Self.register(
                    client, tenant, kind, user: #""external_id":null,"user_alias":{"alias_name":"anon-1","alias_label":"install"}"#)
            }
            // The alias names the user: the row moves to the alias's user, not to none.
            let aliased: Int64 = try await database.pool.query(
                "SELECT user_id FROM user_aliases WHERE alias_label = 'install' AND alias_name = 'anon-1'")[0].require("user_id")
            let row = try await Self.row(database, kind)
            #expect(row.userID == aliased)
            #expect(row.externalID == nil, "the alias's user is not u1")
        }
    }

    @Test func anUpdateTokenDetachedKeepsItsActivityType() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await TestGateway.app(database).test(.router) { client async throws in
                try await Self.register(
                    client, tenant, .updateToken, user: #""external_id":"u1","activity_attributes_type":"MatchAttributes""#)
                try await Self.register(client, tenant, .updateToken, user: #""external_id":null"#)
            }
            let type: String? = try await database.pool.query("SELECT attributes_type FROM activity_tokens")[0].decode(
                "attributes_type")
            #expect(type == "MatchAttributes")
            #expect(try await Self.row(database, .updateToken).userID == nil)
        }
    }
}
