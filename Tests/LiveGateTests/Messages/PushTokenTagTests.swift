import APNsCore
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

@Suite("POST /push_token_tag: the SDK's token registry", .requiresPostgres)
struct PushTokenTagTests {
    static let tokenA = "a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1"
    static let tokenB = "ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100"

    static func body(_ tenant: Tenant, _ fields: String) -> String {
        #"{"app_id":"\#(tenant.app.identifier)",\#(fields)}"#
    }

    @Test func registersAnUpdateTokenWithoutAnAPIKey() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await TestGateway.app(database).test(.router) { client async throws in
                let response = try await client.post(
                    "/push_token_tag",
                    Self.body(
                        tenant, #""device_id":"iphone-1","external_id":"fan-7","tag":"game-42","push_token":"\#(Self.tokenA.uppercased())""#
                    ),
                    key: nil)
                #expect(response.status == .created)
                #expect(response.text == #"{"message":"success"}"#)
            }
            let rows = try await database.pool.query(
                """
                SELECT t.push_token, u.external_id FROM activity_tokens t JOIN users u ON u.id = t.user_id
                WHERE t.app_id = $1 AND t.activity_id = 'game-42' AND t.device_id = 'iphone-1'
                """, [tenant.app.id])
            #expect(rows.count == 1)
            // Stored lower-case, the form APNs takes in its path.
            #expect(try rows[0].require("push_token", as: String.self) == Self.tokenA)
            #expect(try rows[0].require("external_id", as: String.self) == "fan-7")
        }
    }

    @Test func sameRegistrationTwiceIsOneRowAndANewTokenReplacesTheOld() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await TestGateway.app(database).test(.router) { client async throws in
                for token in [Self.tokenA, Self.tokenA, Self.tokenB] {
                    let response = try await client.post(
                        "/push_token_tag", Self.body(tenant, #""device_id":"iphone-1","tag":"game-42","push_token":"\#(token)""#), key: nil)
                    #expect(response.status == .created)
                }
                // A second device under the same tag is a second row: tags fan out.
                _ = try await client.post(
                    "/push_token_tag", Self.body(tenant, #""device_id":"ipad-2","tag":"game-42","push_token":"\#(Self.tokenA)""#), key: nil)
            }
            let tokens = try await database.pool.query(
                "SELECT device_id, push_token FROM activity_tokens ORDER BY device_id"
            ).map { [try $0.require("device_id", as: String.self), try $0.require("push_token", as: String.self)] }
            #expect(tokens == [["ipad-2", Self.tokenA], ["iphone-1", Self.tokenB]])
        }
    }

    @Test func nullRemovesTheRegistrationAndRemovingTwiceIsFine() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await database.registerToken(tenant, tag: "game-42", device: "iphone-1", token: Self.tokenA)
            try await database.registerToken(tenant, tag: "game-43", device: "iphone-1", token: Self.tokenA)
            try await TestGateway.app(database).test(.router) { client async throws in
                for _ in 0..<2 {
                    let response = try await client.post(
                        "/push_token_tag", Self.body(tenant, #""device_id":"iphone-1","tag":"game-42","push_token":null"#), key: nil)
                    #expect(response.status == .created)
                }
            }
            #expect(try await database.count("SELECT count(*) FROM activity_tokens WHERE activity_id = 'game-42'") == 0)
            #expect(try await database.count("SELECT count(*) FROM activity_tokens WHERE activity_id = 'game-43'") == 1)
        }
    }

    @Test func pushToStartTokensByAttributesTypeWithAnAlias() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await TestGateway.app(database).test(.router) { client async throws in
                let register = Self.body(
                    tenant,
                    #""device_id":"iphone-1","user_alias":{"alias_name":"anon-1","alias_label":"install"},"activity_attributes_type":"MatchAttributes","push_to_start_token":"\#(Self.tokenA)""#
                )
                #expect(try await client.post("/push_token_tag", register, key: nil).status == .created)
                #expect(try await client.post("/push_token_tag", register, key: nil).status == .created)
                let rotate = register.replacingOccurrences(of: Self.tokenA, with: Self.tokenB)
                #expect(try await client.post("/push_token_tag", rotate, key: nil).status == .created)
            }
            let rows = try await database.pool.query(
                """
                SELECT p.push_token FROM push_to_start_tokens p
                JOIN user_aliases a ON a.user_id = p.user_id AND a.alias_label = 'install' AND a.alias_name = 'anon-1'
                WHERE p.attributes_type = 'MatchAttributes'
                """)
            #expect(try rows.map { try $0.require("push_token", as: String.self) } == [Self.tokenB])
            // The alias made one user, not one per call.
            #expect(try await database.count("SELECT count(*) FROM users") == 1)
            try await TestGateway.app(database).test(.router) { client async throws in
                let remove = Self.body(
                    tenant, #""device_id":"iphone-1","activity_attributes_type":"MatchAttributes","push_to_start_token":null"#)
                #expect(try await client.post("/push_token_tag", remove, key: nil).status == .created)
            }
            #expect(try await database.count("SELECT count(*) FROM push_to_start_tokens") == 0)
        }
    }

    @Test func aDeviceKeepsItsUserWhenALaterCallNamesNone() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await database.registerToken(tenant, tag: "game-42", device: "iphone-1", token: Self.tokenA, externalID: "fan-7")
            try await database.registerToken(tenant, tag: "game-42", device: "iphone-1", token: Self.tokenB)
            let rows = try await database.pool.query(
                "SELECT u.external_id, t.push_token FROM activity_tokens t JOIN users u ON u.id = t.user_id")
            #expect(try rows.map { try $0.require("external_id", as: String.self) } == ["fan-7"])
            #expect(try rows.map { try $0.require("push_token", as: String.self) } == [Self.tokenB])
        }
    }

    static let invalidBodies: [(fields: String, error: String)] = [
        (#""device_id":"d","tag":"t","push_token":"ab","app_id":null"#, "app_id is required"),
        (#""tag":"t","push_token":"ab""#, "device_id is required"),
        (#""device_id":7,"tag":"t","push_token":"ab""#, "device_id must be a string, got number"),
        (#""device_id":"d","tag":"t""#, "push_token is required: a hex token, or null to remove the registration"),
        (
            #""device_id":"d","tag":"t","push_token":"abc""#,
            "push_token must be the token as hex: an even number of 0-9/a-f digits, at most 400"
        ),
        (
            #""device_id":"d","tag":"t","push_token":"zz""#,
            "push_token must be the token as hex: an even number of 0-9/a-f digits, at most 400"
        ),
        (
            #""device_id":"d","push_token":"ab""#,
            "tag (with push_token) or activity_attributes_type (with push_to_start_token) is required"
        ),
        (
            #""device_id":"d","tag":"t","push_token":"ab","activity_attributes_type":"X","push_to_start_token":"ab""#,
            "give tag with push_token, or activity_attributes_type with push_to_start_token, not both"
        ),
        (#""device_id":"d","tag":"","push_token":"ab""#, "tag must not be empty"),
        (
            #""device_id":"d","tag":"t","push_token":"ab","push_to_start_token":"cd""#,
            "push_to_start_token goes with activity_attributes_type, which this call does not give"
        ),
        (
            #""device_id":"d","activity_attributes_type":"X","push_to_start_token":"ab","push_token":"cd""#,
            "push_token goes with tag, which this call does not give"
        ),
        (
            #""device_id":"d","tag":"\#(String(repeating: "x", count: 257))","push_token":"ab""#,
            "tag must be at most 256 characters, got 257"
        ),
        (
            #""device_id":"d","activity_attributes_type":"X","push_to_start_token":12"#,
            "push_to_start_token must be the token as hex: an even number of 0-9/a-f digits, at most 400"
        ),
        (#""device_id":"d","tag":"t","push_token":"ab","user_alias":{"alias_name":"n"}"#, "user_alias.alias_label is required"),
        (#""device_id":"d","tag":"t","push_token":"ab","external_id":["x"]"#, "external_id must be a string, got array"),
    ]

    @Test(arguments: invalidBodies)
    func eachInvalidFieldIs400NamingIt(fields: String, error: String) async throws {
        try await expectRefused("/push_token_tag", { Self.body($0, fields) }, error: error, useKey: false)
    }

    @Test func unknownAppIs400() async throws {
        try await TestDatabase.with { database in
            try await TestGateway.app(database).test(.router) { client async throws in
                let response = try await client.post(
                    "/push_token_tag", #"{"app_id":"nope","device_id":"d","tag":"t","push_token":"ab"}"#, key: nil)
                #expect(response.status == .badRequest)
                #expect(response.text == #"{"errors":["no app has app_id 'nope'"],"message":"Unknown app_id"}"#)
            }
        }
    }

    @Test(arguments: ["", "[1,2]", "{\"app_id\":", "nul"])
    func bodiesThatAreNotAJSONObjectAre400(text: String) async throws {
        try await TestDatabase.with { database in
            try await TestGateway.app(database).test(.router) { client async throws in
                let response = try await client.post("/push_token_tag", text, key: nil)
                #expect(response.status == .badRequest)
                let message = try #require(try response.json["message"]?.stringValue)
                #expect(message.hasPrefix("Request body"))
            }
        }
    }
}
